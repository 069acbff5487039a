#include <stdio.h>
#include <dftracer/dftracer.h>

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
    DFTRACER_C_FUNCTION_START();
    fprintf(stderr, "[%d] line %d: error %d: %s\n", comm, line, n, mess);
    DFTRACER_C_FUNCTION_END();
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
    DFTRACER_C_FUNCTION_START();
    PetscFunctionBeginUser;
    if (n > 100) { /* annotate */ DFTRACER_C_FUNCTION_END(); SETERRQ(0, PETSC_ERR_ARG_OUTOFRANGE, "too large"); }
    printf("fill %d\n", n);
    DFTRACER_C_FUNCTION_END();
    PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode setup(int n)
{
    DFTRACER_C_FUNCTION_START();
    PetscFunctionBeginUser;
    if (n < 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        PetscFunctionReturn(PETSC_ERR_ARG_OUTOFRANGE);
    }
    PetscCall(fill(n));
    DFTRACER_C_FUNCTION_END();
    PetscFunctionReturn(PETSC_SUCCESS);
}

static void report(int v)
{
    DFTRACER_C_FUNCTION_START();
    PetscFunctionBeginUser;
    if (v == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        PetscFunctionReturnVoid();
    }
    printf("report %d\n", v);
    DFTRACER_C_FUNCTION_END();
    PetscFunctionReturnVoid();
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
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    return status || petscstack != 1;
}
