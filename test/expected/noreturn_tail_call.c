#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>
#include <dftracer/dftracer.h>

/* Prints the usage and leaves. */
void usage(const char *prog)
{
    DFTRACER_C_FUNCTION_START();
    fprintf(stderr, "usage: %s -b BLOCKSIZE -s SEGMENTS\n", prog);
    exit(EXIT_FAILURE);
}

/* Aborts every rank after a message. */
void abort_job(const char *why, int code)
{
    DFTRACER_C_FUNCTION_START();
    fprintf(stderr, "fatal: %s\n", why);
    MPI_Abort(MPI_COMM_WORLD, code);
}

static _Noreturn void fail(const char *msg)
{
    DFTRACER_C_FUNCTION_START();
    perror(msg);
    exit(EXIT_FAILURE);
}

int parse_segments(const char *arg)
{
    DFTRACER_C_FUNCTION_START();
    int n = atoi(arg);

    if (n > 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return n;
    }
    fail("segment count must be positive");
}
