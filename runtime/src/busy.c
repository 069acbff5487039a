#include "busy.h"

_Thread_local int dftracer_io_busy_;
