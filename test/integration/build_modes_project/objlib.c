#include "modes.h"

int obj_scale(int x) { return OBJLIB_SCALE * x + MODES_LEVEL; }
