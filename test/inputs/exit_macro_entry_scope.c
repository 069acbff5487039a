#include <stdio.h>

/* Entry macros shaped like HDF5 1.10's FUNC_ENTER_NOAPI: they open
 * `{ if (H5_PKG_INIT_VAR || !H5_TERM_GLOBAL) {`, which the exit macro
 * closes before returning, so the return runs whether or not the scope
 * did. LEAVE and LEAVE_VOID are listed in the rule set's exit_macros
 * (exit_macro_entry_scope.rules.json): END goes before them, inside the
 * `if`, and START right after ENTER, inside it too, so that both are
 * skipped together (issue 21). In `checked` a return before ENTER needs
 * an END outside the scope: START stays at the top, with a warning naming
 * ENTER. */
static int pkg_ready;
static int terminating;
static int total;

#define ENTER                                                                 \
    {                                                                         \
        if (pkg_ready || !terminating) {
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

    r = x + 1;

    LEAVE(r)
}

static void add(int x)
{
    ENTER /* opens two scopes */
    total += x;
    LEAVE_VOID
}

static int checked(int x)
{
    if (x < 0)
        return -1;

    ENTER
    x *= 2;
    LEAVE(x)
}

static void mark(void)
{
    fflush(stdout);
}

int main(void)
{
    int status = 0;

    status |= checked(2) != 4;
    mark();
    status |= work(1) != 2;
    mark();
    add(3);
    mark();
    terminating = 1;
    status |= work(1) != 0;
    mark();
    add(4);
    mark();
    return status || total != 3;
}
