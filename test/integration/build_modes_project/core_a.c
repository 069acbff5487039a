#include "modes.h"

int core_add(int x) { return core_clamp(x) + CORE_OFFSET; }
