#include <hdf5.h>
#include <dftracer/dftracer.h>

/* Opens the file when it exists; a negative id otherwise, quietly. */
hid_t open_if_exists(const char *path)
{
    DFTRACER_C_FUNCTION_START();
    hid_t fid;

    H5E_BEGIN_TRY {
        fid = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    } H5E_END_TRY;
    if (fid < 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return H5I_INVALID_HID;
    }
    DFTRACER_C_FUNCTION_END();
    return fid;
}

/* Removes a dataset left over by a previous run, if any. */
void remove_stale(hid_t file, const char *name)
{
    DFTRACER_C_FUNCTION_START();
    H5E_BEGIN_TRY {
        H5Ldelete(file, name, H5P_DEFAULT);
    } H5E_END_TRY;
    DFTRACER_C_FUNCTION_END();
}
