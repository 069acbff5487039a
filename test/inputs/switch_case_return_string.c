#include <stddef.h>

enum io_api { API_POSIX, API_MPIIO, API_HDF5, API_NCMPI };

/* Name of an I/O backend as printed in the results table. */
const char *api_name(enum io_api api)
{
    switch (api) {
    case API_POSIX: return "POSIX";
    case API_MPIIO: return "MPIIO";
    case API_HDF5:  return "HDF5";
    case API_NCMPI:
        return "NCMPI";
    }
    return "unknown";
}
