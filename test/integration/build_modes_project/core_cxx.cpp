#include <numeric>
#include <vector>

#include "modes.h"

int core_sum(int x) {
  std::vector<int> v{x, core_clamp(x), CORE_OFFSET};
  return std::accumulate(v.begin(), v.end(), 0);
}
