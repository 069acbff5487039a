/* writer - each rank writes WRITER_BLOCKS blocks to its own file. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "iokit.h"
#include "writer_config.h"

static void fill(char *buf, size_t n, int rank)
{
    memset(buf, 'a' + rank, n);
}

int main(int argc, char **argv)
{
    int rank;
    long mine, total = 0;
    char path[4096], buf[256];
    iokit_file io;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    snprintf(path, sizeof path, "%s/" WRITER_PREFIX "%d.dat",
             argc > 1 ? argv[1] : ".", rank);
    if (iokit_open(&io, path, "wb") != 0)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (int i = 0; i < WRITER_BLOCKS; i++) {
        fill(buf, iokit_block_size(rank), rank);
        if (iokit_write(&io, buf, iokit_block_size(rank)) != 0)
            MPI_Abort(MPI_COMM_WORLD, 2);
    }
    mine = iokit_close(&io);
    MPI_Reduce(&mine, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("writer: %ld bytes\n", total);
    MPI_Finalize();
    return 0;
}
