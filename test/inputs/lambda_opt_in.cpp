#include <algorithm>
#include <vector>

// With a rule set that sets "cxx": {"lambdas": true}, lambdas get the guard
// too, wherever they are written.
void sort_by_size(std::vector<std::vector<char>> &blocks)
{
    std::sort(blocks.begin(), blocks.end(),
              [](const std::vector<char> &a, const std::vector<char> &b) {
                  return a.size() < b.size();
              });
}

int total(const std::vector<int> &values)
{
    int sum = 0;
    auto add = [&sum](int x) { sum += x; };
    std::for_each(values.begin(), values.end(), add);
    return sum;
}

template <typename F>
int apply_twice(F f, int x) { return f(f(x)); }

int nested(int x)
{
    auto outer = [](int y) {
        auto inner = [y](int z) { return y + z; };
        return inner(y);
    };
    return apply_twice(outer, x) + apply_twice([](auto v) { return v * 2; }, x);
}

auto twice = [](int x) { return 2 * x; };

int quadruple(int x) { return twice(twice(x)); }
