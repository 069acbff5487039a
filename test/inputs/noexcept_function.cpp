#include <utility>

// A file handle that moves and swaps without throwing.
struct Handle {
    explicit Handle(int fd) noexcept : fd(fd) {}

    Handle(Handle &&other) noexcept : fd(other.fd) { other.fd = -1; }

    void swap(Handle &other) noexcept
    {
        std::swap(fd, other.fd);
    }

    int fd;
};

int release(Handle &h) noexcept(true)
{
    int fd = h.fd;
    h.fd = -1;
    return fd;
}

template <typename T>
void swap_if(T &a, T &b, bool cond) noexcept(noexcept(std::swap(a, b)))
{
    if (cond)
        std::swap(a, b);
}
