#include <algorithm>
#include <vector>
#include <dftracer/dftracer.h>

// With a rule set that sets "cxx": {"lambdas": true}, lambdas get the guard
// too, wherever they are written.
void sort_by_size(std::vector<std::vector<char>> &blocks)
{
    DFTRACER_CPP_FUNCTION();
    std::sort(blocks.begin(), blocks.end(),
              [](const std::vector<char> &a, const std::vector<char> &b) {
                  DFTRACER_CPP_FUNCTION();
                  return a.size() < b.size();
              });
}

int total(const std::vector<int> &values)
{
    DFTRACER_CPP_FUNCTION();
    int sum = 0;
    auto add = [&sum](int x) {
        DFTRACER_CPP_FUNCTION(); sum += x; };
    std::for_each(values.begin(), values.end(), add);
    return sum;
}

template <typename F>
int apply_twice(F f, int x) {
    DFTRACER_CPP_FUNCTION(); return f(f(x)); }

int nested(int x)
{
    DFTRACER_CPP_FUNCTION();
    auto outer = [](int y) {
        DFTRACER_CPP_FUNCTION();
        auto inner = [y](int z) {
            DFTRACER_CPP_FUNCTION(); return y + z; };
        return inner(y);
    };
    return apply_twice(outer, x) + apply_twice([](auto v) {
        DFTRACER_CPP_FUNCTION(); return v * 2; }, x);
}

auto twice = [](int x) {
    DFTRACER_CPP_FUNCTION(); return 2 * x; };

int quadruple(int x) {
    DFTRACER_CPP_FUNCTION(); return twice(twice(x)); }
