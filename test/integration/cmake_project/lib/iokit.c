/* iokit.c - a small I/O library (static library target `iokit`). */
#include "iokit.h"

#include <errno.h>

int iokit_open(iokit_file *io, const char *path, const char *mode)
{
    io->bytes = 0;
    io->file = fopen(path, mode);
    if (io->file == NULL)
        return errno ? errno : -1;
    return 0;
}

int iokit_write(iokit_file *io, const void *buf, size_t n)
{
#ifdef IOKIT_STRICT
    /* Another site's configuration: annotate_target(iokit OPTIONS --variant
     * ...) plans it too, so this return gets its END. */
    if (n == 0 && IOKIT_STRICT > 1) return -2;
#endif
    if (fwrite(buf, 1, n, io->file) != n) return -1;
    io->bytes += (long)n;
    return 0;
}

long iokit_read(iokit_file *io, void *buf, size_t n)
{
    size_t got = fread(buf, 1, n, io->file);
    io->bytes += (long)got;
    return (long)got;
}

long iokit_close(iokit_file *io)
{
    long bytes = io->bytes;
    if (fclose(io->file) != 0)
        return -1;
    return bytes;
}
