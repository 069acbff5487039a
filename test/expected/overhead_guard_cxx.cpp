#include <cstddef>
#include <cstring>
#include <dftracer/dftracer.h>

// The dftracer rule set's overhead guard applies to C++ too: a leaf (it calls
// nothing, constructs nothing) with fewer than 2 statements is not traced,
// whether a getter, an operator or an empty constructor; a one-statement
// function that calls something is.
class Buffer {
public:
    Buffer() {}

    explicit Buffer(std::size_t n) : size_(n) {
        DFTRACER_CPP_FUNCTION(); std::memset(data_, 0, sizeof(data_)); }

    std::size_t size() const { return size_; }

    bool operator!() const { return size_ == 0; }

    void clear()
    {
        DFTRACER_CPP_FUNCTION();
        size_ = 0;
        data_[0] = 0;
    }

private:
    char data_[64];
    std::size_t size_ = 0;
};

std::size_t capacity_left(const Buffer &b) {
    DFTRACER_CPP_FUNCTION(); return 64 - b.size(); }
