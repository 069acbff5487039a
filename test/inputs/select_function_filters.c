/* Function filters apply in order and the last match wins: with
 *   --exclude-function=*_cb --include-function=re:^keep_
 * callbacks are skipped except keep_ ones. */
#include <stdio.h>

static int progress_cb(int done, int total)
{
    printf("%d/%d\n", done, total);
    return 0;
}

static int keep_error_cb(int code)
{
    fprintf(stderr, "error %d\n", code);
    return code;
}

int run(int steps)
{
    for (int i = 0; i < steps; i++)
        progress_cb(i, steps);
    return keep_error_cb(0);
}
