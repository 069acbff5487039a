/* reader - each rank reads back the file the writer left for it. */
#include <mpi.h>
#include <stdio.h>

#include "iokit.h"
#include "legacy_sum.h"

static int check(const char *buf, long n, int rank)
{
    for (long i = 0; i < n; i++)
        if (buf[i] != 'a' + rank)
            return 0;
    return 1;
}

int main(int argc, char **argv)
{
    int rank, ok = 1;
    long got, mine = 0, sum = 0, total = 0;
    char path[4096], buf[256];
    iokit_file io;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    snprintf(path, sizeof path, "%s/block-%d.dat", argc > 1 ? argv[1] : ".",
             rank);
    if (iokit_open(&io, path, "rb") != 0) {
        fprintf(stderr, "reader: cannot open %s\n", path);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    while ((got = iokit_read(&io, buf, iokit_block_size(rank))) > 0) {
        ok &= check(buf, got, rank);
        sum += legacy_sum(buf, (size_t)got);
    }
    mine = iokit_close(&io);
    MPI_Reduce(&mine, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%s: %ld bytes, %s, sum %ld\n", reader_version(), total,
               ok ? "ok" : "CORRUPT", sum);
    MPI_Finalize();
    return ok ? 0 : 1;
}
