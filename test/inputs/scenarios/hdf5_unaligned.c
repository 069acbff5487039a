/*
 * hdf5_unaligned.c - hdf5_unaligned: each rank writes its own HDF5 file
 * (sec2 driver) of 24 contiguous datasets of odd sizes (1 MiB + 4099 k + 1
 * bytes) with no alignment set, so HDF5 packs them back to back and every
 * dataset's write starts off the file system's block boundary (FIXED:
 * H5Pset_alignment(fapl, block, block) with the output directory's
 * statfs block size, what the hdf5_unaligned advice says to set).
 */
#include "scenario.h"

#include <sys/vfs.h>

#include <hdf5.h>

#define DATASETS 24
#define BASE_BYTES (1u << 20)
#define ODD_STEP 4099u

static size_t dataset_bytes(int k)
{
    return BASE_BYTES + ODD_STEP * (size_t)k + 1;
}

static hid_t file_access(void)
{
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (scenario_fixed) {
        struct statfs fs;
        if (statfs(scenario_dir, &fs) != 0)
            scenario_fail(scenario_dir);
        /* Objects of at least one block start on a block boundary. */
        H5Pset_alignment(fapl, (hsize_t)fs.f_bsize, (hsize_t)fs.f_bsize);
    }
    return fapl;
}

static void write_fields(hid_t file, const char *buf)
{
    DFTRACER_C_FUNCTION_START();
    int k;
    for (k = 0; k < DATASETS; k++) {
        char name[32];
        hsize_t dims[1] = {dataset_bytes(k)};
        hid_t space = H5Screate_simple(1, dims, NULL);
        hid_t dset;
        snprintf(name, sizeof(name), "field_%02d", k);
        dset = H5Dcreate2(file, name, H5T_NATIVE_UCHAR, space, H5P_DEFAULT,
                          H5P_DEFAULT, H5P_DEFAULT);
        if (dset < 0)
            scenario_fail(name);
        H5Dwrite(dset, H5T_NATIVE_UCHAR, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
        H5Dclose(dset);
        H5Sclose(space);
    }
    DFTRACER_C_FUNCTION_END();
}

int main(int argc, char **argv)
{
    char path[4096];
    char *buf;
    hid_t fapl, file;
    scenario_start(&argc, &argv);
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    buf = scenario_buffer(dataset_bytes(DATASETS - 1));
    scenario_path(path, sizeof(path), "fields.h5", scenario_rank);
    fapl = file_access();
    file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    if (file < 0)
        scenario_fail(path);
    write_fields(file, buf);
    H5Fclose(file);
    H5Pclose(fapl);
    free(buf);
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    MPI_Finalize();
    return 0;
}
