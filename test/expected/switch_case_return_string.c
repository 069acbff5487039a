#include <stddef.h>
#include <dftracer/dftracer.h>

enum io_api { API_POSIX, API_MPIIO, API_HDF5, API_NCMPI };

/* Name of an I/O backend as printed in the results table. */
const char *api_name(enum io_api api)
{
    DFTRACER_C_FUNCTION_START();
    switch (api) {
    case API_POSIX: DFTRACER_C_FUNCTION_END(); return "POSIX";
    case API_MPIIO: DFTRACER_C_FUNCTION_END(); return "MPIIO";
    case API_HDF5:  DFTRACER_C_FUNCTION_END(); return "HDF5";
    case API_NCMPI:
        DFTRACER_C_FUNCTION_END();
        return "NCMPI";
    }
    DFTRACER_C_FUNCTION_END();
    return "unknown";
}
