/* legacy.c - a GCC nested function: Clang, hence annotate, cannot parse
 * it. annotate-cc prints one warning and compiles the original. */
#include "shared.h"

long legacy_scale(long value)
{
    long factor = 3;
    long scale(long v) { return v * factor; }
    return scale(value) / factor;
}
