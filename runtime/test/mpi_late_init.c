/* MPI initialised and finalised inside a helper, as in IOR's
 * `return ior_main(argc, argv);`: INIT runs before MPI_Init and FINI after
 * MPI_Finalize, so neither can ask MPI for the rank. The first span the main
 * thread starts while MPI is up records it. */
#include <dftracer/dftracer.h>
#include <mpi.h>

static int exchange(int Rank) {
  int Sum = 0;
  DFTRACER_C_FUNCTION_START();
  MPI_Allreduce(&Rank, &Sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  DFTRACER_C_FUNCTION_END();
  return Sum;
}

static int appMain(int argc, char **argv) {
  int Rank = 0, Sum;
  DFTRACER_C_FUNCTION_START();
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  Sum = exchange(Rank);
  MPI_Finalize();
  DFTRACER_C_FUNCTION_END();
  return Sum == 1 ? 0 : 1;
}

int main(int argc, char **argv) {
  int Rc;
  DFTRACER_C_INIT(NULL, NULL, NULL);
  DFTRACER_C_FUNCTION_START();
  Rc = appMain(argc, argv);
  DFTRACER_C_FUNCTION_END();
  DFTRACER_C_FINI();
  return Rc;
}
