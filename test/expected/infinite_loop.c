#include <mpi.h>
#include <unistd.h>
#include <dftracer/dftracer.h>

/* Serves read requests until a rank sends tag 0. */
int serve_requests(int fd, MPI_Comm comm)
{
    DFTRACER_C_FUNCTION_START();
    char buf[4096];

    for (;;) {
        MPI_Status st;
        int len;

        MPI_Recv(&len, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &st);
        if (st.MPI_TAG == 0) { /* annotate */
            DFTRACER_C_FUNCTION_END();
            return 0;
        }
        if (len > (int)sizeof buf)
            len = (int)sizeof buf;
        if (pread(fd, buf, (size_t)len, 0) < 0) { /* annotate */
            DFTRACER_C_FUNCTION_END();
            return -1;
        }
        MPI_Send(buf, len, MPI_BYTE, st.MPI_SOURCE, 1, comm);
    }
}

/* Background thread that flushes the log every second until told to stop. */
void *flusher(void *arg)
{
    DFTRACER_C_FUNCTION_START();
    volatile int *stop = arg;

    while (1) {
        if (*stop) { /* annotate */ DFTRACER_C_FUNCTION_END(); return NULL; }
        sleep(1);
    }
}
