/*
 * tune_files.c - the files DFTRACER_TUNE is tried on (test/tuning): each
 * rank creates, with the default (sec2) driver, a.h5.RANK (its own file
 * space page size, 8192) and b.h5.RANK (default lists, a variable-length
 * string dataset before the data); own.h5.RANK with
 * its own alignment (512, 512);
 * then all ranks create shared.h5 through H5Pset_fapl_mpio; last, each
 * rank opens a.h5.RANK again with H5Fopen. Every file gets one dataset
 * written (and read back after the H5Fopen). Nothing here is tuned: the
 * settings come from the environment only.
 *
 * Usage: tune_files OUTDIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hdf5.h>
#include <mpi.h>

#define N 4096

static int rank, size;
static char dir[4000];

static void fail(const char *what)
{
    fprintf(stderr, "tune_files: %s failed\n", what);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

static void path_of(char *buf, const char *name, int r)
{
    if (r < 0)
        snprintf(buf, 4096, "%s/%s", dir, name);
    else
        snprintf(buf, 4096, "%s/%s.%d", dir, name, r);
}

/* One dataset "data" of N ints: this rank's part of it (all of it when
 * the file is the rank's own). */
static void write_data(hid_t file, int shared)
{
    static int buf[N];
    hsize_t dims[1] = {shared ? (hsize_t)N * size : N};
    hsize_t start[1] = {shared ? (hsize_t)N * rank : 0}, count[1] = {N};
    hid_t space = H5Screate_simple(1, dims, NULL), mem, dset;
    int i;
    for (i = 0; i < N; i++)
        buf[i] = rank * N + i;
    dset = H5Dcreate2(file, "data", H5T_NATIVE_INT, space, H5P_DEFAULT,
                      H5P_DEFAULT, H5P_DEFAULT);
    if (dset < 0)
        fail("H5Dcreate2");
    mem = H5Screate_simple(1, count, NULL);
    H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, count, NULL);
    if (H5Dwrite(dset, H5T_NATIVE_INT, mem, space, H5P_DEFAULT, buf) < 0)
        fail("H5Dwrite");
    H5Sclose(mem);
    H5Dclose(dset);
    H5Sclose(space);
}

static void create_own(const char *name, hid_t fcpl, hid_t fapl)
{
    char path[4096];
    hid_t file;
    path_of(path, name, rank);
    file = H5Fcreate(path, H5F_ACC_TRUNC, fcpl, fapl);
    if (file < 0)
        fail(path);
    if (strcmp(name, "b.h5") == 0) {
        /* A variable-length string dataset first: HDF5 refuses it a fill
         * time of "never". */
        hid_t type = H5Tcopy(H5T_C_S1), space, dset;
        hsize_t dims[1] = {4};
        H5Tset_size(type, H5T_VARIABLE);
        space = H5Screate_simple(1, dims, NULL);
        dset = H5Dcreate2(file, "names", type, space, H5P_DEFAULT,
                          H5P_DEFAULT, H5P_DEFAULT);
        if (dset < 0)
            fail("H5Dcreate2 names");
        H5Dclose(dset);
        H5Sclose(space);
        H5Tclose(type);
    }
    write_data(file, 0);
    H5Fclose(file);
}

int main(int argc, char **argv)
{
    char path[4096];
    hid_t fapl, fcpl, file, dset;
    static int back[N];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    snprintf(dir, sizeof(dir), "%s", argv[1]);

    fcpl = H5Pcreate(H5P_FILE_CREATE);
    H5Pset_file_space_page_size(fcpl, 8192);
    create_own("a.h5", fcpl, H5P_DEFAULT);
    H5Pclose(fcpl);
    create_own("b.h5", H5P_DEFAULT, H5P_DEFAULT);
    fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5Pset_alignment(fapl, 512, 512);
    create_own("own.h5", H5P_DEFAULT, fapl);
    H5Pclose(fapl);

    fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
    path_of(path, "shared.h5", -1);
    file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    if (file < 0)
        fail(path);
    {
        /* The application's list is its own: what the runtime set on its
         * copy must not show here. */
        hsize_t threshold, alignment;
        H5Pget_alignment(fapl, &threshold, &alignment);
        if (threshold != 1 || alignment != 1)
            fail("the application's FAPL was changed");
    }
    write_data(file, 1);
    H5Fclose(file);
    H5Pclose(fapl);

    path_of(path, "a.h5", rank);
    file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (file < 0)
        fail(path);
    dset = H5Dopen2(file, "data", H5P_DEFAULT);
    if (dset < 0 || H5Dread(dset, H5T_NATIVE_INT, H5S_ALL, H5S_ALL,
                            H5P_DEFAULT, back) < 0 ||
        back[N - 1] != rank * N + N - 1)
        fail("reading a.h5 back");
    H5Dclose(dset);
    H5Fclose(file);
    MPI_Finalize();
    return 0;
}
