#include <algorithm>
#include <vector>

// Classes defined inside function bodies: their member functions are
// annotated like any other (the functor style that predates lambdas).
int count_large(const std::vector<int> &v, int limit)
{
    struct Above {
        int limit;
        bool operator()(int x) const
        {
            if (x > limit)
                return true;
            return false;
        }
    };
    return static_cast<int>(std::count_if(v.begin(), v.end(), Above{limit}));
}

template <typename T>
T sum_scaled(const std::vector<T> &v, T factor)
{
    struct Scale {
        T factor;
        T apply(T x) const { return x * factor; }
    };
    Scale s{factor};
    T total = T();
    for (T x : v)
        total += s.apply(x);
    return total;
}

double sum_doubles(const std::vector<double> &v)
{
    return sum_scaled(v, 2.0);
}
