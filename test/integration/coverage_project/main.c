/* main.c - each rank writes a file through work() and nested(). */
#include <mpi.h>
#include <stdio.h>

int work(const char *path, int rank);
int nested(int v);

int main(int argc, char **argv) {
  int rank = 0, sum;
  char path[256];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  snprintf(path, sizeof(path), "covapp.%d.out", rank);
  sum = work(path, nested(rank));
  if (rank == 0)
    printf("covapp: %d\n", sum);
  MPI_Finalize();
  return 0;
}
