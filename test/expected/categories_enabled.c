/* --categories: after START each function records its category, the first
 * of io, comm, mem that one of its callees matches in the rule set, else
 * cpu. */
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>
#include <dftracer/dftracer.h>

static int save(const char *path, const double *v, size_t n)
{
    DFTRACER_C_FUNCTION_START();
    DFTRACER_C_FUNCTION_UPDATE_STR("comp", "io");
    FILE *f = fopen(path, "wb");
    if (f == NULL) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return -1;
    }
    size_t written = fwrite(v, sizeof *v, n, f);
    fclose(f);
    DFTRACER_C_FUNCTION_END();
    return written == n ? 0 : -1;
}

static double reduce(double local)
{
    DFTRACER_C_FUNCTION_START();
    DFTRACER_C_FUNCTION_UPDATE_STR("comp", "comm");
    double global = 0.0;
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    DFTRACER_C_FUNCTION_END();
    return global;
}

static double *make(size_t n)
{
    DFTRACER_C_FUNCTION_START();
    DFTRACER_C_FUNCTION_UPDATE_STR("comp", "mem");
    double *v = calloc(n, sizeof *v);
    DFTRACER_C_FUNCTION_END();
    return v;
}

static double norm(const double *v, size_t n)
{
    DFTRACER_C_FUNCTION_START();
    DFTRACER_C_FUNCTION_UPDATE_STR("comp", "cpu");
    double s = 0.0;
    for (size_t i = 0; i < n; i++)
        s += v[i] * v[i];
    DFTRACER_C_FUNCTION_END();
    return s;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    DFTRACER_C_FUNCTION_UPDATE_STR("comp", "comm");
    double *v = make(16);
    double n = reduce(norm(v, 16));
    int rc = save("v.bin", v, 16);
    free(v);
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    MPI_Finalize();
    return rc != 0 || n != 0.0;
}
