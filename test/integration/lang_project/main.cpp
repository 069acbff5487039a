// Calls one function of every source of langmix, on every rank.
#include <mpi.h>

#include <cstdio>

#include "mix.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int v[] = {1, 2, 3, 4};
  int total = shape_area(2, 3) + plain_sum(v, 4) + table_lookup(3) +
              scaled_parts(1.5);
  double mean = stats_mean(v, 4);
  if (rank == 0)
    std::printf("langmix: %d %.2f\n", total, mean);
  MPI_Finalize();
  return 0;
}
