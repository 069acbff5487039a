/* broken.c - annotate parses it (Clang, warnings off); the compiler
 * rejects it (-Werror=unused-variable). The error must name this file and
 * the line below, not the annotated copy. */
#include <stdio.h>

static int twice(int x)
{
    if (x > 100) return -1;
    return 2 * x;
}

int main(void)
{
    int unused_value; /* line 14: the error */
    return twice(2) == 4 ? 0 : 1;
}
