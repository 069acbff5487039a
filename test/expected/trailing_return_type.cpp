#include <cstddef>
#include <vector>
#include <dftracer/dftracer.h>

auto element_count(const std::vector<int> &v) -> std::size_t {
    DFTRACER_CPP_FUNCTION(); return v.size(); }

template <typename A, typename B>
auto product(A a, B b) -> decltype(a * b)
{
    DFTRACER_CPP_FUNCTION();
    return a * b;
}

struct Grid {
    auto cells() const -> long;
    long nx = 4;
    long ny = 4;
};

auto Grid::cells() const -> long
{
    DFTRACER_CPP_FUNCTION();
    return product(nx, ny);
}
