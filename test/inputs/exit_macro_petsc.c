#include <stdio.h>

/* Exit macros shaped like PETSc's (petscerror.h, petsclog.h):
 * PetscFunctionBeginUser pushes the function, PetscFunctionReturn pops it
 * and returns its value, SETERRQ returns the error PetscError builds.
 * Each is an exit: END goes before it (in a braceless body, braced).
 * PetscCall returns on error only: no END before it, a warning, and the
 * runtime's cleanup closes the span on that path. */
typedef int PetscErrorCode;
#define PETSC_SUCCESS 0
#define PETSC_ERR_ARG_OUTOFRANGE 63

static int petscstack;

static PetscErrorCode PetscError(int comm, int line, PetscErrorCode n,
                                 const char *mess)
{
    fprintf(stderr, "[%d] line %d: error %d: %s\n", comm, line, n, mess);
    return n;
}

#define PetscFunctionBeginUser do { ++petscstack; } while (0)
#define PetscFunctionReturn(a) do { --petscstack; return (a); } while (0)
#define PetscFunctionReturnVoid() do { --petscstack; return; } while (0)
#define SETERRQ(comm, ierr, mess) return PetscError(comm, __LINE__, ierr, mess)
#define PetscCall(...)                                                        \
    do {                                                                      \
        PetscErrorCode ierr_ = (__VA_ARGS__);                                 \
        if (ierr_ != PETSC_SUCCESS) {                                         \
            --petscstack;                                                     \
            return ierr_;                                                     \
        }                                                                     \
    } while (0)

static PetscErrorCode fill(int n)
{
    PetscFunctionBeginUser;
    if (n > 100) SETERRQ(0, PETSC_ERR_ARG_OUTOFRANGE, "too large");
    printf("fill %d\n", n);
    PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode setup(int n)
{
    PetscFunctionBeginUser;
    if (n < 0)
        PetscFunctionReturn(PETSC_ERR_ARG_OUTOFRANGE);
    PetscCall(fill(n));
    PetscFunctionReturn(PETSC_SUCCESS);
}

static void report(int v)
{
    PetscFunctionBeginUser;
    if (v == 0)
        PetscFunctionReturnVoid();
    printf("report %d\n", v);
    PetscFunctionReturnVoid();
}

static void mark(void)
{
    fflush(stdout);
}

int main(void)
{
    PetscErrorCode status = 0;

    status |= setup(4);
    mark();
    status |= setup(-1) == PETSC_ERR_ARG_OUTOFRANGE ? 0 : 1;
    mark();
    status |= fill(1000) == PETSC_ERR_ARG_OUTOFRANGE ? 0 : 1;
    mark();
    report(0);
    mark();
    report(5);
    mark();
    /* SETERRQ leaves its frame on the stack, as PETSc's error traceback does. */
    return status || petscstack != 1;
}
