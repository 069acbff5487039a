#include <hdf5.h>
#include <dftracer/dftracer.h>

/* Creates the output file and its dataset, cleaning up on error. */
int create_output(const char *path, hsize_t n)
{
    DFTRACER_C_FUNCTION_START();
    int ret = -1;
    hid_t file, space = H5I_INVALID_HID, dset;

    file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (file < 0)
        goto done;
    space = H5Screate_simple(1, &n, NULL);
    if (space < 0)
        goto error;
    dset = H5Dcreate2(file, "data", H5T_NATIVE_INT, space, H5P_DEFAULT,
                      H5P_DEFAULT, H5P_DEFAULT);
    if (dset < 0)
        goto error;
    H5Dclose(dset);
    ret = 0;

error:
    if (space >= 0)
        H5Sclose(space);
    H5Fclose(file);
done:
    DFTRACER_C_FUNCTION_END();
    return ret;
}
