#include <algorithm>
#include <dftracer/dftracer.h>

namespace {

// Only this file uses it.
int clamp_level(int level)
{
    DFTRACER_CPP_FUNCTION();
    return std::min(std::max(level, 0), 9);
}

} // namespace

int compression_level(int requested)
{
    DFTRACER_CPP_FUNCTION();
    return clamp_level(requested);
}
