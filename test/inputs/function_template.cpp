#include <vector>

// The largest value; written once, used for int and double.
template <typename T>
T max_of(const std::vector<T> &values)
{
    T best = values.front();
    for (const T &v : values)
        if (best < v)
            best = v;
    return best;
}

template <typename T, typename U>
T scaled(T value, U factor) { return static_cast<T>(value * factor); }

double largest_scaled(const std::vector<int> &counts, const std::vector<double> &sizes)
{
    return scaled(max_of(counts), 2) + scaled(max_of(sizes), 0.5);
}
