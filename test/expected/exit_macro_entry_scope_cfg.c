#include <dftracer/dftracer.h>
#include <stdio.h>

/* HDF5 1.10's entry and exit macros with the default rule set, no
 * exit_macros list (issue 38): ENTER opens `{ if (pkg_ready || !terminating)
 * {`, LEAVE closes both scopes and returns, so its return runs whether or
 * not the `if` did. With START right after ENTER, inside the `if`, every
 * path that passes START passes the END before LEAVE, and a path that skips
 * the scope skips both: decided on the CFG, LEAVE is an exit there.
 * `checked` (a return before ENTER: START cannot move) is not: its LEAVE
 * is warned about and START stays at the top (it is not called: without
 * the runtime's cleanup its span would stay open). `init_first` has a goto
 * into the scope, past where START would go, as HDF5's package
 * initialisation makes on failure: START stays at the top, before the
 * goto, and LEAVE is an exit (END before it), since every path into the
 * scope passes that END; only the path that skips the scope returns
 * without END, which the warning says (it is called before `terminating`
 * is set). */
static int pkg_ready;
static int terminating;
static int total;

#define ENTER                                                                 \
    {                                                                         \
        if (pkg_ready || !terminating) {
#define ENTER_INIT                                                            \
    {                                                                         \
        if (!pkg_ready && total < 0)                                          \
            goto done;                                                        \
        if (pkg_ready || !terminating) {
#define GOTO_DONE(v)                                                          \
    do {                                                                      \
        r = (v);                                                              \
        goto done;                                                            \
    } while (0)
#define LEAVE(v)                                                              \
        ;                                                                     \
        }                                                                     \
        return (v);                                                           \
    }
#define LEAVE_VOID                                                            \
        ;                                                                     \
        }                                                                     \
        return;                                                               \
    }

static int work(int x)
{
    int r = 0;

    ENTER
    DFTRACER_C_FUNCTION_START();

    if (x > 10)
        GOTO_DONE(10);
    r = x + 1;

done:
    DFTRACER_C_FUNCTION_END();
    LEAVE(r)
}

static void add(int x)
{
    ENTER /* opens two scopes */
    DFTRACER_C_FUNCTION_START();
    total += x;
    DFTRACER_C_FUNCTION_END();
    LEAVE_VOID
}

int checked(int x)
{
    DFTRACER_C_FUNCTION_START();
    if (x < 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return -1;
    }

    ENTER
    x *= 2;
    LEAVE(x)
}

int init_first(int x)
{
    DFTRACER_C_FUNCTION_START();
    int r = x;

    ENTER_INIT
    r *= 3;
done:
    DFTRACER_C_FUNCTION_END();
    LEAVE(r)
}

/* Statements #included after ENTER, in the scope: they come after START in
 * the translation unit, so START still goes inside. */
static int included(int x)
{
    int r = x;

    ENTER
    DFTRACER_C_FUNCTION_START();
#include "exit_macro_entry_scope_cfg.inc"
    r += 1;
    DFTRACER_C_FUNCTION_END();
    LEAVE(r)
}

static void mark(void)
{
    DFTRACER_C_FUNCTION_START();
    fflush(stdout);
    DFTRACER_C_FUNCTION_END();
}

int main(void)
{
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    int status = 0;

    status |= work(1) != 2;
    mark();
    status |= work(20) != 10;
    mark();
    status |= init_first(2) != 6;
    mark();
    status |= included(1) != 2;
    mark();
    add(3);
    mark();
    terminating = 1;
    status |= work(1) != 0;
    mark();
    add(4);
    mark();
    status |= included(5) != 5; /* skips the scope: START and END too */
    mark();
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    return status || total != 4;
}
