#include <stdio.h>

/* A return inside the value of a return: a GNU statement expression
 * (issue 38). The inner returns get their END inside the copied value, and
 * the value is still computed inside the span; neither edit is dropped. */
static int fail(int code)
{
    printf("fail %d\n", code);
    return code;
}

static int half(int x)
{
    return ({ if (x < 0) return -1; x / 2; });
}

static int checked_half(int x)
{
    if (x > 100)
        return 100;
    return ({
        if (x < 0)
            return fail(x);
        x / 2;
    });
}

static void mark(void)
{
    fflush(stdout);
}

int main(void)
{
    int status = 0;

    status |= half(4) != 2;
    mark();
    status |= half(-4) != -1;
    mark();
    status |= checked_half(-3) != -3;
    mark();
    status |= checked_half(6) != 3;
    mark();
    return status;
}
