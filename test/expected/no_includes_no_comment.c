#include <dftracer/dftracer.h>
unsigned long round_up(unsigned long n, unsigned long align)
{
    DFTRACER_C_FUNCTION_START();
    DFTRACER_C_FUNCTION_END();
    return (n + align - 1) / align * align;
}
