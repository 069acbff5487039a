#include <cstddef>
#include <vector>

// A fixed-size ring of samples; members of a class template are written
// once, whatever it is instantiated with.
template <typename T>
class Ring {
public:
    explicit Ring(std::size_t capacity) : items_(capacity) {}

    void push(const T &value)
    {
        items_[next_ % items_.size()] = value;
        ++next_;
    }

    T newest() const;

private:
    std::vector<T> items_;
    std::size_t next_ = 0;
};

template <typename T>
T Ring<T>::newest() const
{
    return items_[(next_ + items_.size() - 1) % items_.size()];
}

template class Ring<double>;

int newest_count()
{
    Ring<int> counts(4);
    counts.push(3);
    return counts.newest();
}
