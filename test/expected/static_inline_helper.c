#include <stddef.h>
#include <string.h>
#include <dftracer/dftracer.h>

static inline size_t min_size(size_t a, size_t b) {
    DFTRACER_C_FUNCTION_START(); DFTRACER_C_FUNCTION_END(); return a < b ? a : b; }

/* Copies at most `cap` bytes of a record into the output buffer. */
size_t copy_record(char *out, size_t cap, const char *rec, size_t len)
{
    DFTRACER_C_FUNCTION_START();
    size_t n = min_size(cap, len);

    memcpy(out, rec, n);
    DFTRACER_C_FUNCTION_END();
    return n;
}
