/*
 * small_hdf5.c - small_hdf5_access: each rank writes a 512 x 1024-byte
 * dataset of its own HDF5 file one row per H5Dwrite (FIXED: all rows in
 * one H5Dwrite).
 */
#include "scenario.h"

#include <hdf5.h>

#define ROWS 512
#define COLS 1024

static void write_rows(hid_t dset, const char *buf)
{
    DFTRACER_C_FUNCTION_START();
    hid_t file_space = H5Dget_space(dset);
    if (scenario_fixed) {
        H5Dwrite(dset, H5T_NATIVE_CHAR, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
    } else {
        hsize_t count[2] = {1, COLS};
        hid_t mem_space = H5Screate_simple(2, count, NULL);
        hsize_t r;
        for (r = 0; r < ROWS; r++) {
            hsize_t start[2] = {r, 0};
            H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start, NULL,
                                count, NULL);
            H5Dwrite(dset, H5T_NATIVE_CHAR, mem_space, file_space,
                     H5P_DEFAULT, buf + r * COLS);
        }
        H5Sclose(mem_space);
    }
    H5Sclose(file_space);
    DFTRACER_C_FUNCTION_END();
}

int main(int argc, char **argv)
{
    char path[4096];
    char *buf;
    hsize_t dims[2] = {ROWS, COLS};
    hid_t file, space, dset;
    scenario_start(&argc, &argv);
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    buf = scenario_buffer((size_t)ROWS * COLS);
    scenario_path(path, sizeof(path), "rows.h5", scenario_rank);
    file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (file < 0)
        scenario_fail(path);
    space = H5Screate_simple(2, dims, NULL);
    dset = H5Dcreate2(file, "rows", H5T_NATIVE_CHAR, space, H5P_DEFAULT,
                      H5P_DEFAULT, H5P_DEFAULT);
    write_rows(dset, buf);
    H5Dclose(dset);
    H5Sclose(space);
    H5Fclose(file);
    free(buf);
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    MPI_Finalize();
    return 0;
}
