#include <cstddef>
#include <cstring>

// Entry points a C benchmark calls through its backend table.
extern "C" {

int backend_open(const char *path)
{
    if (path == nullptr || std::strlen(path) == 0)
        return -1;
    return 3;
}

void backend_close(int fd)
{
    (void)fd;
}

} // extern "C"

extern "C" std::size_t backend_block_size(void) { return 4096; }
