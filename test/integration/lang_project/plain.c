/* Real C: `new` is a name here, which C++ would reject. */
#include "mix.h"

int plain_sum(const int *v, int n) {
  int new = 0;
  for (int i = 0; i < n; ++i)
    new += v[i];
  return new;
}
