#include <cstdio>
#include <mpi.h>
#include <vector>
#include <dftracer/dftracer.h>

// Annotated by an earlier run of annotate: nothing changes.
class Samples {
public:
    explicit Samples(int rank) : values_(4, rank + 0.5) {
        DFTRACER_CPP_FUNCTION();}

    double sum() const
    {
        DFTRACER_CPP_FUNCTION();
        double s = 0.0;
        for (double v : values_)
            s += v;
        return s;
    }

private:
    std::vector<double> values_;
};

template <typename T>
T twice(T x) {
    DFTRACER_CPP_FUNCTION(); return x + x; }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    Samples samples(rank);
    std::printf("%d %g\n", rank, twice(samples.sum()));
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    MPI_Finalize();
    return 0;
}
