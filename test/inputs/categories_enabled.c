/* --categories: after START each function records its category, the first
 * of io, comm, mem that one of its callees matches in the rule set, else
 * cpu. */
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>

static int save(const char *path, const double *v, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return -1;
    size_t written = fwrite(v, sizeof *v, n, f);
    fclose(f);
    return written == n ? 0 : -1;
}

static double reduce(double local)
{
    double global = 0.0;
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return global;
}

static double *make(size_t n)
{
    double *v = calloc(n, sizeof *v);
    return v;
}

static double norm(const double *v, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++)
        s += v[i] * v[i];
    return s;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    double *v = make(16);
    double n = reduce(norm(v, 16));
    int rc = save("v.bin", v, 16);
    free(v);
    MPI_Finalize();
    return rc != 0 || n != 0.0;
}
