#include <stdio.h>
#include <hdf5.h>
#include <dftracer/dftracer.h>

/* One definition per I/O backend; only the configured one is compiled. */
#if defined(USE_MPIIO)
int backend_name(char *buf, size_t len)
{
    return snprintf(buf, len, "MPIIO");
}
#elif defined(H5_HAVE_PARALLEL)
int backend_name(char *buf, size_t len)
{
    DFTRACER_C_FUNCTION_START();
    { int annotate_ret = (snprintf(buf, len, "HDF5 (parallel)")); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
}
#else
int backend_name(char *buf, size_t len)
{
    return snprintf(buf, len, "HDF5 (serial)");
}
#endif
