// constexpr functions are skipped: a guard is not allowed in a constant
// expression (before C++23 not even as a declaration).
#include <dftracer/dftracer.h>
constexpr int kib(int n) { return n * 1024; }

struct Geometry {
    constexpr long area() const
    {
        return w * h;
    }
    long w;
    long h;
};

static_assert(kib(4) == 4096, "kib");

long buffer_bytes(int n, Geometry g)
{
    DFTRACER_CPP_FUNCTION();
    return kib(n) + g.area();
}
