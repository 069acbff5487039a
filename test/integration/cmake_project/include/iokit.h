/* iokit.h - the header every target of the test project shares. */
#ifndef IOKIT_H
#define IOKIT_H

#include <stddef.h>
#include <stdio.h>

typedef struct {
  FILE *file;
  long bytes;
} iokit_file;

int iokit_open(iokit_file *io, const char *path, const char *mode);
int iokit_write(iokit_file *io, const void *buf, size_t n);
long iokit_read(iokit_file *io, void *buf, size_t n);
long iokit_close(iokit_file *io);

/* Defined in the header: compiled into every user, never annotated. */
static inline size_t iokit_block_size(int rank) {
  return 64 + (size_t)rank * 16;
}

#endif
