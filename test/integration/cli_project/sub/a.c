/* a.c - compiled from the directory above: "a.h" is found beside it. */
#include <stdio.h>

#include "a.h"

int b_func(int x);

static int a_func(int x)
{
    if (x < 0) return 0;
    return b_func(x) + A_OFFSET;
}

int main(void)
{
    int sum = 0;
    for (int i = 0; i < 3; i++)
        sum += a_func(i);
    printf("sum %d\n", sum);
    return 0;
}
