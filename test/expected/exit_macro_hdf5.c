#include <stdio.h>
#include <dftracer/dftracer.h>

/* Exit macros shaped like HDF5's (H5private.h, H5Eprivate.h):
 * FUNC_ENTER_NOAPI opens two scopes that FUNC_LEAVE_NOAPI closes after
 * popping the function stack and returning; HGOTO_ERROR and HGOTO_DONE
 * jump to `done`; H5Epush_ret pushes an error and returns. END goes
 * before each exit macro (found from its expansion, not its name), none
 * before a HGOTO_* (a goto inside the function). */
typedef int herr_t;
#define SUCCEED 0
#define FAIL (-1)

static int stack_depth;
static int errors;

#define H5_PUSH_FUNC ++stack_depth;
#define H5_POP_FUNC --stack_depth;
#define FUNC_ENTER_NOAPI(err)                                                 \
    {                                                                         \
        int err_occurred = 0;                                                 \
        H5_PUSH_FUNC                                                          \
        {
#define FUNC_ENTER_NOAPI_NOINIT_NOERR FUNC_ENTER_NOAPI(FAIL)
#define FUNC_LEAVE_NOAPI(ret_value)                                           \
        ;                                                                     \
        } /* end scope from end of FUNC_ENTER */                              \
        if (err_occurred)                                                     \
            ++errors;                                                         \
        H5_POP_FUNC                                                           \
        return (ret_value);                                                   \
    } /* end scope from beginning of FUNC_ENTER */
#define FUNC_LEAVE_NOAPI_VOID                                                 \
        ;                                                                     \
        }                                                                     \
        if (err_occurred)                                                     \
            ++errors;                                                         \
        H5_POP_FUNC                                                           \
        return;                                                               \
    }
#define FUNC_LEAVE_SUCCEED FUNC_LEAVE_NOAPI(SUCCEED)
#define HGOTO_ERROR(maj, min, ret_val, msg)                                   \
    {                                                                         \
        fprintf(stderr, "%d/%d: %s\n", maj, min, msg);                        \
        err_occurred = 1;                                                     \
        ret_value = (ret_val);                                                \
        goto done;                                                            \
    }
#define HGOTO_DONE(ret_val)                                                   \
    {                                                                         \
        ret_value = (ret_val);                                                \
        goto done;                                                            \
    }
#define H5Epush_ret(msg, ret_val)                                             \
    {                                                                         \
        fprintf(stderr, "%s\n", msg);                                         \
        return (ret_val);                                                     \
    }

static herr_t close_file(int fd)
{
    DFTRACER_C_FUNCTION_START();
    herr_t ret_value = SUCCEED;

    FUNC_ENTER_NOAPI(FAIL)

    if (fd < 0)
        HGOTO_ERROR(1, 2, FAIL, "not a file")
    if (fd == 0)
        HGOTO_DONE(SUCCEED)
    printf("closing %d\n", fd);

done:
    DFTRACER_C_FUNCTION_END();
    FUNC_LEAVE_NOAPI(ret_value)
}

static void reset_stack(void)
{
    DFTRACER_C_FUNCTION_START();
    FUNC_ENTER_NOAPI_NOINIT_NOERR

    stack_depth = 0;

    DFTRACER_C_FUNCTION_END();
    FUNC_LEAVE_NOAPI_VOID
}

static herr_t check_arg(int v)
{
    DFTRACER_C_FUNCTION_START();
    if (v < 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        H5Epush_ret("negative argument", FAIL)
    }
    printf("argument %d\n", v);
    DFTRACER_C_FUNCTION_END();
    return SUCCEED;
}

static herr_t touch(int v)
{
    DFTRACER_C_FUNCTION_START();
    FUNC_ENTER_NOAPI(FAIL)
    printf("touch %d\n", v);
    DFTRACER_C_FUNCTION_END();
    FUNC_LEAVE_SUCCEED
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
    herr_t status = 0;

    status |= close_file(3);
    mark();
    status |= close_file(0);
    mark();
    status |= close_file(-1) == FAIL ? 0 : 1;
    mark();
    reset_stack();
    mark();
    status |= check_arg(2);
    mark();
    status |= check_arg(-2) == FAIL ? 0 : 1;
    mark();
    status |= touch(1);
    mark();
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    return status || errors != 1;
}
