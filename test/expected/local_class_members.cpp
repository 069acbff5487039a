#include <algorithm>
#include <vector>
#include <dftracer/dftracer.h>

// Classes defined inside function bodies: their member functions are
// annotated like any other (the functor style that predates lambdas).
int count_large(const std::vector<int> &v, int limit)
{
    DFTRACER_CPP_FUNCTION();
    struct Above {
        int limit;
        bool operator()(int x) const
        {
            DFTRACER_CPP_FUNCTION();
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
    DFTRACER_CPP_FUNCTION();
    struct Scale {
        T factor;
        T apply(T x) const {
            DFTRACER_CPP_FUNCTION(); return x * factor; }
    };
    Scale s{factor};
    T total = T();
    for (T x : v)
        total += s.apply(x);
    return total;
}

double sum_doubles(const std::vector<double> &v)
{
    DFTRACER_CPP_FUNCTION();
    return sum_scaled(v, 2.0);
}
