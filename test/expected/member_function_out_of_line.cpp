#include <cstddef>
#include <cstring>
#include <dftracer/dftracer.h>

// A checkpoint image whose methods are defined after the class.
class Checkpoint {
public:
    bool write(const void *data, std::size_t bytes);
    std::size_t offset() const;
    void rewind();

private:
    char image_[1 << 16];
    std::size_t offset_ = 0;
};

bool Checkpoint::write(const void *data, std::size_t bytes)
{
    DFTRACER_CPP_FUNCTION();
    if (offset_ + bytes > sizeof(image_))
        return false;
    std::memcpy(image_ + offset_, data, bytes);
    offset_ += bytes;
    return true;
}

std::size_t Checkpoint::offset() const {
    DFTRACER_CPP_FUNCTION(); return offset_; }

inline void Checkpoint::rewind()
{
    DFTRACER_CPP_FUNCTION();
    offset_ = 0;
}

// A member of a nested class, defined outside both classes.
struct Layout {
    struct Stripe {
        long start(int index) const;
        long size;
    };
};

long Layout::Stripe::start(int index) const
{
    DFTRACER_CPP_FUNCTION();
    return index * size;
}
