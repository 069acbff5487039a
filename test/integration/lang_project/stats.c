/* C++ in a .c file (LANGUAGE CXX): a namespace, a template, <numeric>. */
#include <numeric>

#include "mix.h"

namespace stats {
template <typename T> T total(const T *v, int n) {
  return std::accumulate(v, v + n, T());
}
} // namespace stats

extern "C" double stats_mean(const int *v, int n) {
  if (n == 0)
    return 0.0;
  return static_cast<double>(stats::total(v, n)) / n;
}
