/* Under `mpiexec -n 2`: two files, each recording its own rank, although the
 * runtime does not link MPI (weak symbols). */
#include <dftracer/dftracer.h>
#include <mpi.h>

static int exchange(int Rank) {
  int Sum = 0;
  DFTRACER_C_FUNCTION_START();
  MPI_Allreduce(&Rank, &Sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  DFTRACER_C_FUNCTION_END();
  return Sum;
}

int main(int argc, char **argv) {
  int Rank = 0, Sum;
  MPI_Init(&argc, &argv);
  DFTRACER_C_INIT(NULL, NULL, NULL);
  DFTRACER_C_FUNCTION_START();
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  Sum = exchange(Rank);
  DFTRACER_C_FUNCTION_END();
  DFTRACER_C_FINI();
  MPI_Finalize();
  return Sum == 1 ? 0 : 1;
}
