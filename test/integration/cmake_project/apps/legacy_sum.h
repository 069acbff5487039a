#ifndef LEGACY_SUM_H
#define LEGACY_SUM_H
#include <stddef.h>
long legacy_sum(const char *buf, size_t n);
const char *reader_version(void);
#endif
