#include <stddef.h>
#include <string.h>

static inline size_t min_size(size_t a, size_t b) { return a < b ? a : b; }

/* Copies at most `cap` bytes of a record into the output buffer. */
size_t copy_record(char *out, size_t cap, const char *rec, size_t len)
{
    size_t n = min_size(cap, len);

    memcpy(out, rec, n);
    return n;
}
