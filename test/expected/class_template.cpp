#include <cstddef>
#include <vector>
#include <dftracer/dftracer.h>

// A fixed-size ring of samples; members of a class template are written
// once, whatever it is instantiated with.
template <typename T>
class Ring {
public:
    explicit Ring(std::size_t capacity) : items_(capacity) {
        DFTRACER_CPP_FUNCTION();}

    void push(const T &value)
    {
        DFTRACER_CPP_FUNCTION();
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
    DFTRACER_CPP_FUNCTION();
    return items_[(next_ + items_.size() - 1) % items_.size()];
}

template class Ring<double>;

int newest_count()
{
    DFTRACER_CPP_FUNCTION();
    Ring<int> counts(4);
    counts.push(3);
    return counts.newest();
}
