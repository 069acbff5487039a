/* main.c - each rank fills RECORDS records, checksums them and writes a
 * one-line report. */
#include <mpi.h>
#include <stdio.h>

#include "settings.h"
#include "shared.h"

int main(int argc, char **argv)
{
    int rank;
    char record[RECORD_SIZE], path[4096];
    unsigned long sum = 0, total = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < RECORDS; i++) {
        compute_fill(record, sizeof record, rank + i);
        sum += compute_checksum(record, sizeof record);
    }
    snprintf(path, sizeof path, "%s/report-%d.txt", argc > 1 ? argv[1] : ".",
             rank);
    if (io_write_report(path, rank, sum) != 0) {
        fprintf(stderr, "cannot write %s\n", path);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Reduce(&sum, &total, 1, MPI_UNSIGNED_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("checksum %lu, scaled %ld\n", total, legacy_scale((long)total));
    MPI_Finalize();
    return 0;
}
