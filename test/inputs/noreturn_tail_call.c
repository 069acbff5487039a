#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>

/* Prints the usage and leaves. */
void usage(const char *prog)
{
    fprintf(stderr, "usage: %s -b BLOCKSIZE -s SEGMENTS\n", prog);
    exit(EXIT_FAILURE);
}

/* Aborts every rank after a message. */
void abort_job(const char *why, int code)
{
    fprintf(stderr, "fatal: %s\n", why);
    MPI_Abort(MPI_COMM_WORLD, code);
}

static _Noreturn void fail(const char *msg)
{
    perror(msg);
    exit(EXIT_FAILURE);
}

int parse_segments(const char *arg)
{
    int n = atoi(arg);

    if (n > 0)
        return n;
    fail("segment count must be positive");
}
