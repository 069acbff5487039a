/* main.c - each rank writes a file through work() and nested(). */
#include <mpi.h>
#include <stdio.h>

int work(const char *path, int rank);
int nested(int v);
#ifdef COVAPP_LIBS
int liba(int v);
#endif

int main(int argc, char **argv) {
  int rank = 0, sum;
  char path[256];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  snprintf(path, sizeof(path), "covapp.%d.out", rank);
  sum = work(path, nested(rank));
#ifdef COVAPP_LIBS
  sum += liba(rank);
#endif
  if (rank == 0)
    printf("covapp: %d\n", sum);
  MPI_Finalize();
  return 0;
}
