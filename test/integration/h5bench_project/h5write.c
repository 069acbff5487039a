/* h5write DIR ELEMENTS: each rank fills ELEMENTS ints with
 * uniform_random_number() (one call each, counted and printed), writes
 * them collectively as its block of one dataset of DIR/data.h5 through
 * HDF5's MPI-IO driver, closes, and reads its block back. */
#include "util.h"

#include <hdf5.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void check(int Ok, const char *What) {
  if (!Ok) {
    fprintf(stderr, "h5write: %s failed\n", What);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

static void writeFile(const char *Path, const int *Data, hsize_t Count,
                      int Rank, int Size) {
  hsize_t Dims[1] = {Count * (hsize_t)Size}, Start[1] = {Count * (hsize_t)Rank};
  hsize_t Block[1] = {Count};
  hid_t Fapl, File, FileSpace, MemSpace, Set, Xfer;
  check((Fapl = H5Pcreate(H5P_FILE_ACCESS)) >= 0, "H5Pcreate");
  check(H5Pset_fapl_mpio(Fapl, MPI_COMM_WORLD, MPI_INFO_NULL) >= 0, "fapl");
  check((File = H5Fcreate(Path, H5F_ACC_TRUNC, H5P_DEFAULT, Fapl)) >= 0,
        "H5Fcreate");
  check((FileSpace = H5Screate_simple(1, Dims, NULL)) >= 0, "file space");
  check((Set = H5Dcreate2(File, "x", H5T_NATIVE_INT, FileSpace, H5P_DEFAULT,
                          H5P_DEFAULT, H5P_DEFAULT)) >= 0,
        "H5Dcreate2");
  check(H5Sselect_hyperslab(FileSpace, H5S_SELECT_SET, Start, NULL, Block,
                            NULL) >= 0,
        "hyperslab");
  check((MemSpace = H5Screate_simple(1, Block, NULL)) >= 0, "memory space");
  check((Xfer = H5Pcreate(H5P_DATASET_XFER)) >= 0, "xfer");
  check(H5Pset_dxpl_mpio(Xfer, H5FD_MPIO_COLLECTIVE) >= 0, "collective");
  check(H5Dwrite(Set, H5T_NATIVE_INT, MemSpace, FileSpace, Xfer, Data) >= 0,
        "H5Dwrite");
  H5Pclose(Xfer);
  H5Sclose(MemSpace);
  H5Sclose(FileSpace);
  H5Dclose(Set);
  H5Fclose(File);
  H5Pclose(Fapl);
}

static long readFile(const char *Path, int *Data, hsize_t Count, int Rank) {
  hsize_t Start[1] = {Count * (hsize_t)Rank}, Block[1] = {Count};
  hid_t Fapl, File, FileSpace, MemSpace, Set;
  long Sum = 0;
  hsize_t I;
  check((Fapl = H5Pcreate(H5P_FILE_ACCESS)) >= 0, "H5Pcreate");
  check(H5Pset_fapl_mpio(Fapl, MPI_COMM_WORLD, MPI_INFO_NULL) >= 0, "fapl");
  check((File = H5Fopen(Path, H5F_ACC_RDONLY, Fapl)) >= 0, "H5Fopen");
  check((Set = H5Dopen2(File, "x", H5P_DEFAULT)) >= 0, "H5Dopen2");
  check((FileSpace = H5Dget_space(Set)) >= 0, "H5Dget_space");
  check(H5Sselect_hyperslab(FileSpace, H5S_SELECT_SET, Start, NULL, Block,
                            NULL) >= 0,
        "hyperslab");
  check((MemSpace = H5Screate_simple(1, Block, NULL)) >= 0, "memory space");
  check(H5Dread(Set, H5T_NATIVE_INT, MemSpace, FileSpace, H5P_DEFAULT, Data) >=
            0,
        "H5Dread");
  for (I = 0; I < Count; ++I)
    Sum += Data[I];
  H5Sclose(MemSpace);
  H5Sclose(FileSpace);
  H5Dclose(Set);
  H5Fclose(File);
  H5Pclose(Fapl);
  return Sum;
}

int main(int argc, char **argv) {
  char Path[4096];
  int Rank, Size, *Data;
  long Count, Written = 0, Read, I;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  check(argc == 3, "usage: h5write DIR ELEMENTS;");
  Count = atol(argv[2]);
  snprintf(Path, sizeof(Path), "%s/data.h5", argv[1]);
  check(Count > 0 && (Data = malloc((size_t)Count * sizeof(int))) != NULL,
        "malloc");
  srand(1 + (unsigned)Rank);
  fill_buffer(Data, Count);
  for (I = 0; I < Count; ++I)
    Written += Data[I];
  writeFile(Path, Data, (hsize_t)Count, Rank, Size);
  Read = readFile(Path, Data, (hsize_t)Count, Rank);
  check(Read == Written, "read back");
  printf("rank %d: uniform_random_number calls: %ld, bytes: %ld\n", Rank, Count,
         Count * (long)sizeof(int));
  free(Data);
  MPI_Finalize();
  return 0;
}
