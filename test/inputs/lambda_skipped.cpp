#include <algorithm>
#include <vector>

// Lambdas are not annotated by default; the functions around them are.
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
