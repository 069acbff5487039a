#include <hdf5.h>
#include <dftracer/dftracer.h>

/* Creates the 1-D dataset the benchmark writes into. */
hid_t create_dataset(hid_t file, const char *name, hsize_t n)
{
    DFTRACER_C_FUNCTION_START();
    hid_t space = H5Screate_simple(1, &n, NULL);
    hid_t dset;

    if (space < 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return H5I_INVALID_HID;
    }
    dset = H5Dcreate2(file, name, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT,
                      H5P_DEFAULT, H5P_DEFAULT);
    H5Sclose(space);
    DFTRACER_C_FUNCTION_END();
    return dset;
}

herr_t close_dataset(hid_t dset)
{
    DFTRACER_C_FUNCTION_START();
    { herr_t annotate_ret = (H5Dclose(dset)); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
}
