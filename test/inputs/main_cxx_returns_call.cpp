#include <cstdio>
#include <mpi.h>
#include <string>

namespace app {

// The benchmark proper; main only forwards to it.
int run(int argc, char **argv)
{
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
    if (argc > 8)
        return 2;
    return app::run(argc, argv);
}
