#include <cstdio>
#include <mpi.h>
#include <string>
#include <dftracer/dftracer.h>

namespace app {

// The benchmark proper; main only forwards to it.
int run(int argc, char **argv)
{
    DFTRACER_CPP_FUNCTION();
    MPI_Init(&argc, &argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::string who = std::string(argv[0]) + " rank " + std::to_string(rank);
    if (rank == 0)
        std::printf("%s\n", who.c_str());
    MPI_Finalize();
    return 0;
}

} // namespace app

int main(int argc, char **argv)
{
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    if (argc > 8) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        DFTRACER_C_FINI();
        return 2;
    }
    { int annotate_ret = (app::run(argc, argv)); DFTRACER_C_FUNCTION_END(); DFTRACER_C_FINI(); return annotate_ret; }
}
