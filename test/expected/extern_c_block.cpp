#include <cstddef>
#include <cstring>
#include <dftracer/dftracer.h>

// Entry points a C benchmark calls through its backend table.
extern "C" {

int backend_open(const char *path)
{
    DFTRACER_CPP_FUNCTION();
    if (path == nullptr || std::strlen(path) == 0)
        return -1;
    return 3;
}

void backend_close(int fd)
{
    DFTRACER_CPP_FUNCTION();
    (void)fd;
}

} // extern "C"

extern "C" std::size_t backend_block_size(void) {
    DFTRACER_CPP_FUNCTION(); return 4096; }
