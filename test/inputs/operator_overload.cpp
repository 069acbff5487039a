#include <cstddef>
#include <ostream>

// A byte range of a shared file, with the operators a planner needs.
struct Extent {
    std::size_t offset;
    std::size_t length;

    bool operator<(const Extent &other) const { return offset < other.offset; }

    Extent &operator+=(std::size_t bytes)
    {
        offset += bytes;
        return *this;
    }

    explicit operator bool() const { return length != 0; }

    std::size_t operator()(std::size_t i) const { return offset + i; }
};

Extent operator+(Extent e, std::size_t bytes)
{
    e += bytes;
    return e;
}

std::ostream &operator<<(std::ostream &os, const Extent &e)
{
    return os << '[' << e.offset << ", " << e.offset + e.length << ')';
}
