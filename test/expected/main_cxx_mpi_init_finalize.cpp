#include <cstdio>
#include <mpi.h>
#include <numeric>
#include <vector>
#include <dftracer/dftracer.h>

// main in C++ keeps the explicit C form: INIT/START after MPI_Init, END/FINI
// before MPI_Finalize, so the trace is finalised after main's span closes.
static double local_sum(const std::vector<double> &values)
{
    DFTRACER_CPP_FUNCTION();
    return std::accumulate(values.begin(), values.end(), 0.0);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::vector<double> values(8, rank + 1.0);
    double local = local_sum(values);
    double total = 0.0;
    MPI_Reduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        std::printf("total %g\n", total);
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    MPI_Finalize();
    return 0;
}
