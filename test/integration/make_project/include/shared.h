/* shared.h - included by every object of the program. */
#ifndef SHARED_H
#define SHARED_H

#include <stddef.h>

#define RECORDS 5

unsigned long compute_checksum(const char *buf, size_t n);
void compute_fill(char *buf, size_t n, int seed);
int io_write_report(const char *path, int rank, unsigned long sum);
long legacy_scale(long value);

#endif
