#include <utility>
#include <dftracer/dftracer.h>

// A file handle that moves and swaps without throwing.
struct Handle {
    explicit Handle(int fd) noexcept : fd(fd) {
        DFTRACER_CPP_FUNCTION();}

    Handle(Handle &&other) noexcept : fd(other.fd) {
        DFTRACER_CPP_FUNCTION(); other.fd = -1; }

    void swap(Handle &other) noexcept
    {
        DFTRACER_CPP_FUNCTION();
        std::swap(fd, other.fd);
    }

    int fd;
};

int release(Handle &h) noexcept(true)
{
    DFTRACER_CPP_FUNCTION();
    int fd = h.fd;
    h.fd = -1;
    return fd;
}

template <typename T>
void swap_if(T &a, T &b, bool cond) noexcept(noexcept(std::swap(a, b)))
{
    DFTRACER_CPP_FUNCTION();
    if (cond)
        std::swap(a, b);
}
