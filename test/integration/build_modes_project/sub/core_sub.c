#include "core_local.h"
#include "modes.h"

int core_sub(int x) { return x - CORE_SUB_STEP + CORE_OFFSET; }
