#include <algorithm>

namespace {

// Only this file uses it.
int clamp_level(int level)
{
    return std::min(std::max(level, 0), 9);
}

} // namespace

int compression_level(int requested)
{
    return clamp_level(requested);
}
