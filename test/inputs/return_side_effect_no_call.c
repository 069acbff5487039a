#include <stddef.h>

static int next_id;

/* Hands out request ids in order. */
int new_request_id(void)
{
    return next_id++;
}
