#include <cstddef>
#include <cstring>
#include <vector>
#include <dftracer/dftracer.h>

// Packs values of any trivially copyable type into a byte buffer.
class Packer {
public:
    template <typename T>
    void put(const T &value)
    {
        DFTRACER_CPP_FUNCTION();
        const char *p = reinterpret_cast<const char *>(&value);
        bytes.insert(bytes.end(), p, p + sizeof(T));
    }

    template <typename T>
    T get(std::size_t offset) const;

    std::vector<char> bytes;
};

template <typename T>
T Packer::get(std::size_t offset) const
{
    DFTRACER_CPP_FUNCTION();
    T value;
    std::memcpy(&value, bytes.data() + offset, sizeof(T));
    return value;
}

template <typename Key>
struct Index {
    template <typename It>
    void add_all(It first, It last);

    std::vector<Key> keys;
};

template <typename Key>
template <typename It>
void Index<Key>::add_all(It first, It last)
{
    DFTRACER_CPP_FUNCTION();
    for (; first != last; ++first)
        keys.push_back(*first);
}

double round_trip()
{
    DFTRACER_CPP_FUNCTION();
    Packer packer;
    packer.put(42);
    packer.put(2.5);
    packer.put(7L);
    int ids[] = {1, 2, 3};
    Index<int> index;
    index.add_all(ids, ids + 3);
    Index<long> wide;
    wide.add_all(index.keys.begin(), index.keys.end());
    return packer.get<int>(0) + packer.get<double>(sizeof(int)) + wide.keys.size();
}
