/* modes's precompiled header: pch_user.c and ascxx.c use MODES_PCH_FACTOR
 * and modes_pch_twice() without including this file. */
#include "modes.h"
#define MODES_PCH_FACTOR 4
static inline int modes_pch_twice(int x) { return 2 * x; }
