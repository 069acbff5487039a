#include "modes.h"

int core_twice(int x) { return 2 * core_clamp(x); }
