/* h5io DIR: each rank writes its block of one dataset of DIR/data.h5
 * collectively through HDF5's MPI-IO driver, reads it back, and rank 0
 * writes a summary with POSIX write(): HDF5, MPI-IO and POSIX events. */
#include "util.h"

#include <fcntl.h>
#include <hdf5.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define COUNT 1024

static long write_read(const char *path, int rank, int size)
{
    int data[COUNT];
    hsize_t dims[1] = {(hsize_t)COUNT * (hsize_t)size};
    hsize_t start[1] = {(hsize_t)COUNT * (hsize_t)rank}, block[1] = {COUNT};
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t set = H5Dcreate2(file, "x", H5T_NATIVE_INT, space, H5P_DEFAULT,
                           H5P_DEFAULT, H5P_DEFAULT);
    hid_t mem = H5Screate_simple(1, block, NULL);
    hid_t xfer = H5Pcreate(H5P_DATASET_XFER);
    long sum = 0;
    int i;

    if (file < 0 || set < 0)
        return -1;
    fill(data, COUNT, rank);
    H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, block, NULL);
    H5Pset_dxpl_mpio(xfer, H5FD_MPIO_COLLECTIVE);
    H5Dwrite(set, H5T_NATIVE_INT, mem, space, xfer, data);
    memset(data, 0, sizeof(data));
    H5Dread(set, H5T_NATIVE_INT, mem, space, xfer, data);
    for (i = 0; i < COUNT; i++)
        sum += data[i];
    H5Pclose(xfer);
    H5Sclose(mem);
    H5Sclose(space);
    H5Dclose(set);
    H5Fclose(file);
    H5Pclose(fapl);
    return sum;
}

static int summary(const char *dir, long sum)
{
    char path[4096], line[64];
    int fd, n;

    snprintf(path, sizeof(path), "%s/summary.txt", dir);
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return 1;
    n = snprintf(line, sizeof(line), "sum %ld\n", sum);
    if (write(fd, line, (size_t)n) != n) {
        close(fd);
        return 1;
    }
    return close(fd) != 0;
}

int main(int argc, char **argv)
{
    char path[4096];
    int rank, size, rc = 0;
    long sum;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    snprintf(path, sizeof(path), "%s/data.h5", argc > 1 ? argv[1] : ".");
    sum = write_read(path, rank, size);
    if (rank == 0)
        rc = summary(argc > 1 ? argv[1] : ".", sum);
    printf("rank %d: sum %ld\n", rank, sum);
    MPI_Finalize();
    return rc || sum < 0;
}
