#include <stdio.h>

/* Protothread-style coroutines: CO_END closes the switch CO_BEGIN opened,
 * then returns (issue 38). END before CO_END would sit inside the switch,
 * where the `break` skips it: the return is warned about instead, and
 * left to the runtime's cleanup, as is CO_YIELD's, which returns on some
 * paths only. */
struct co {
    int state;
    int n;
};

#define CO_BEGIN(s) switch ((s)->state) { case 0:
#define CO_YIELD(s, v)                                                        \
    do {                                                                      \
        (s)->state = __LINE__;                                                \
        return (v);                                                           \
    case __LINE__:;                                                           \
    } while (0)
#define CO_END(s) } return -((s)->state = 1)

static int counter(struct co *s)
{
    CO_BEGIN(s);
    while (s->n < 5) {
        s->n++;
        if (s->n == 3)
            break;
        CO_YIELD(s, s->n);
    }
    CO_END(s);
}

int main(void)
{
    struct co c = {0, 0};
    int a = counter(&c);
    int b = counter(&c);
    int d = counter(&c);

    printf("%d %d %d\n", a, b, d);
    return !(a == 1 && b == 2 && d == -1);
}
