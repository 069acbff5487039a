#include <cstddef>
#include <ostream>
#include <dftracer/dftracer.h>

// A byte range of a shared file, with the operators a planner needs.
struct Extent {
    std::size_t offset;
    std::size_t length;

    bool operator<(const Extent &other) const {
        DFTRACER_CPP_FUNCTION(); return offset < other.offset; }

    Extent &operator+=(std::size_t bytes)
    {
        DFTRACER_CPP_FUNCTION();
        offset += bytes;
        return *this;
    }

    explicit operator bool() const {
        DFTRACER_CPP_FUNCTION(); return length != 0; }

    std::size_t operator()(std::size_t i) const {
        DFTRACER_CPP_FUNCTION(); return offset + i; }
};

Extent operator+(Extent e, std::size_t bytes)
{
    DFTRACER_CPP_FUNCTION();
    e += bytes;
    return e;
}

std::ostream &operator<<(std::ostream &os, const Extent &e)
{
    DFTRACER_CPP_FUNCTION();
    return os << '[' << e.offset << ", " << e.offset + e.length << ')';
}
