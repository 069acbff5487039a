#include <cstddef>
#include <vector>

auto element_count(const std::vector<int> &v) -> std::size_t { return v.size(); }

template <typename A, typename B>
auto product(A a, B b) -> decltype(a * b)
{
    return a * b;
}

struct Grid {
    auto cells() const -> long;
    long nx = 4;
    long ny = 4;
};

auto Grid::cells() const -> long
{
    return product(nx, ny);
}
