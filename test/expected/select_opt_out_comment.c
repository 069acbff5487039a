/* `// annotate: skip` (or the same in a block comment) on the line before a
 * function keeps it out; other functions are annotated as usual. */
#include <string.h>
#include <dftracer/dftracer.h>

/* annotate: skip -- called once per element in the packing loop */
static void pack(char *dst, const char *src, size_t n)
{
    memcpy(dst, src, n);
    dst[n] = '\0';
}

// annotate: skip
static size_t checked_len(const char *s)
{
    if (s == NULL)
        return 0;
    return strlen(s);
}

size_t copy_name(char *dst, const char *src)
{
    DFTRACER_C_FUNCTION_START();
    size_t n = checked_len(src);
    pack(dst, src, n);
    DFTRACER_C_FUNCTION_END();
    return n;
}
