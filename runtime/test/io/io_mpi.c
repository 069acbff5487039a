/* MPI-IO and HDF5 under mpirun -np 2 (io_mpi.expect): each rank writes its
 * block of a shared file with MPI_File_write_at_all in writePhase, reads it
 * back with MPI_File_read_at in readPhase, makes the other MPI-IO calls in
 * mpiForms (one of them with a datatype MPI rejects, two opens that fail), then writes and reads a dataset and an attribute of an HDF5
 * file through the MPI-IO driver in h5Phase and reopens it in h5Reopen.
 * ROMIO's pwrite64/pread64 nest under the MPI-IO calls, which nest under
 * the phases; a file outside the data dir (other/) gives no event. */
#include <dftracer/dftracer.h>

#include <hdf5.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { Block = 4096 };
static char Buf[Block];

static void check(int Ok, const char *What) {
  if (!Ok) {
    fprintf(stderr, "io_mpi: %s failed\n", What);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

static void writePhase(const char *Path, int Rank) {
  DFTRACER_C_FUNCTION_START();
  MPI_File Fh;
  check(MPI_File_open(MPI_COMM_WORLD, Path, MPI_MODE_CREATE | MPI_MODE_WRONLY,
                      MPI_INFO_NULL, &Fh) == MPI_SUCCESS, "MPI_File_open");
  check(MPI_File_write_at_all(Fh, (MPI_Offset)Rank * Block, Buf, Block / 4,
                              MPI_INT, MPI_STATUS_IGNORE) == MPI_SUCCESS,
        "MPI_File_write_at_all");
  check(MPI_File_sync(Fh) == MPI_SUCCESS, "MPI_File_sync");
  check(MPI_File_close(&Fh) == MPI_SUCCESS, "MPI_File_close");
  DFTRACER_C_FUNCTION_END();
}

static void readPhase(const char *Path, int Rank) {
  DFTRACER_C_FUNCTION_START();
  MPI_File Fh;
  check(MPI_File_open(MPI_COMM_WORLD, Path, MPI_MODE_RDONLY, MPI_INFO_NULL,
                      &Fh) == MPI_SUCCESS, "MPI_File_open");
  check(MPI_File_read_at(Fh, (MPI_Offset)Rank * Block, Buf, Block, MPI_BYTE,
                         MPI_STATUS_IGNORE) == MPI_SUCCESS, "MPI_File_read_at");
  check(MPI_File_close(&Fh) == MPI_SUCCESS, "MPI_File_close");
  DFTRACER_C_FUNCTION_END();
}

/* The other MPI-IO forms, once each: views, file pointers (individual and
 * shared), collective and non-blocking transfers, size, delete. ROMIO does
 * the non-blocking ones with POSIX aio: the aio_write/aio_read requests
 * nest under MPI_File_iwrite_at/MPI_File_iread_at, the aio_return that
 * MPI_Wait makes under this function, and the strace check compares the
 * requests with the pwrite64/pread64 of glibc's helper thread. */
static void mpiForms(const char *Path, int Rank) {
  DFTRACER_C_FUNCTION_START();
  MPI_File Fh;
  MPI_Request Req;
  MPI_Offset Mine = (MPI_Offset)Rank * Block;
  check(MPI_File_open(MPI_COMM_WORLD, Path, MPI_MODE_CREATE | MPI_MODE_RDWR,
                      MPI_INFO_NULL, &Fh) == MPI_SUCCESS, "open");
  check(MPI_File_set_size(Fh, 2 * Block) == MPI_SUCCESS, "set_size");
  check(MPI_File_set_view(Fh, Mine, MPI_BYTE, MPI_BYTE, "native",
                          MPI_INFO_NULL) == MPI_SUCCESS, "set_view");
  check(MPI_File_write_all(Fh, Buf, 512, MPI_BYTE, MPI_STATUS_IGNORE) ==
            MPI_SUCCESS, "write_all");
  check(MPI_File_seek(Fh, 0, MPI_SEEK_SET) == MPI_SUCCESS, "seek");
  check(MPI_File_read_all(Fh, Buf, 512, MPI_BYTE, MPI_STATUS_IGNORE) ==
            MPI_SUCCESS, "read_all");
  check(MPI_File_write(Fh, Buf, 8, MPI_DOUBLE, MPI_STATUS_IGNORE) ==
            MPI_SUCCESS, "write");
  /* A datatype MPI rejects: a file's errors return by default, so the call
   * fails and the program goes on; the runtime must not ask MPI the
   * datatype's size first, which would raise the error on MPI_COMM_WORLD,
   * where it is fatal. */
  check(MPI_File_write(Fh, Buf, 1, MPI_DATATYPE_NULL, MPI_STATUS_IGNORE) !=
            MPI_SUCCESS, "write of MPI_DATATYPE_NULL (must fail)");
  check(MPI_File_iwrite_at(Fh, 0, Buf, 64, MPI_BYTE, &Req) == MPI_SUCCESS &&
            MPI_Wait(&Req, MPI_STATUS_IGNORE) == MPI_SUCCESS,
        "iwrite_at");
  check(MPI_File_iread_at(Fh, 0, Buf, 16, MPI_BYTE, &Req) == MPI_SUCCESS &&
            MPI_Wait(&Req, MPI_STATUS_IGNORE) == MPI_SUCCESS,
        "iread_at");
  check(MPI_File_set_view(Fh, 0, MPI_BYTE, MPI_BYTE, "native",
                          MPI_INFO_NULL) == MPI_SUCCESS, "set_view");
  check(MPI_File_seek_shared(Fh, 0, MPI_SEEK_SET) == MPI_SUCCESS,
        "seek_shared");
  check(MPI_File_write_ordered(Fh, Buf, 16, MPI_BYTE, MPI_STATUS_IGNORE) ==
            MPI_SUCCESS, "write_ordered");
  check(MPI_File_close(&Fh) == MPI_SUCCESS, "close");
  MPI_Barrier(MPI_COMM_WORLD);
  if (Rank == 0)
    check(MPI_File_delete(Path, MPI_INFO_NULL) == MPI_SUCCESS, "delete");
  MPI_Barrier(MPI_COMM_WORLD);
  /* Opens that fail: a missing file (the event still has the
   * communicator's size), and MPI_COMM_NULL, which MPI rejects: the open
   * returns its error (MPI_FILE_NULL's handler returns errors), and the
   * runtime must not ask that communicator's size, an error raised on
   * MPI_COMM_WORLD, where it is fatal. */
  check(MPI_File_open(MPI_COMM_WORLD, "data/missing.bin", MPI_MODE_RDONLY,
                      MPI_INFO_NULL, &Fh) != MPI_SUCCESS,
        "open of a missing file (must fail)");
  check(MPI_File_open(MPI_COMM_NULL, "data/nullcomm.bin",
                      MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                      &Fh) != MPI_SUCCESS,
        "open on MPI_COMM_NULL (must fail)");
  DFTRACER_C_FUNCTION_END();
}

/* Reopening the HDF5 file: groups, objects, opens, flush. */
static void h5Reopen(const char *Path) {
  DFTRACER_C_FUNCTION_START();
  int Data[256], Attr = 0;
  hid_t Fapl = H5Pcreate(H5P_FILE_ACCESS), File, Group, Dset, A, Obj;
  check(H5Pset_fapl_mpio(Fapl, MPI_COMM_WORLD, MPI_INFO_NULL) >= 0, "fapl");
  File = H5Fopen(Path, H5F_ACC_RDWR, Fapl);
  check(File >= 0, "H5Fopen");
  Group = H5Gcreate2(File, "g", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  check(Group >= 0 && H5Gclose(Group) >= 0, "H5Gcreate2");
  Group = H5Gopen2(File, "g", H5P_DEFAULT);
  check(Group >= 0 && H5Gclose(Group) >= 0, "H5Gopen2");
  Dset = H5Dopen2(File, "d", H5P_DEFAULT);
  check(Dset >= 0, "H5Dopen2");
  check(H5Dread(Dset, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, Data) >= 0,
        "H5Dread");
  A = H5Aopen(Dset, "a", H5P_DEFAULT);
  check(A >= 0 && H5Aread(A, H5T_NATIVE_INT, &Attr) >= 0 && Attr == 7 &&
            H5Aclose(A) >= 0,
        "H5Aopen");
  Obj = H5Oopen(File, "d", H5P_DEFAULT);
  check(Obj >= 0 && H5Oclose(Obj) >= 0, "H5Oopen");
  check(H5Fflush(File, H5F_SCOPE_GLOBAL) >= 0, "H5Fflush");
  check(H5Dclose(Dset) >= 0 && H5Fclose(File) >= 0, "close");
  H5Pclose(Fapl);
  DFTRACER_C_FUNCTION_END();
}

static void h5Phase(const char *Path) {
  DFTRACER_C_FUNCTION_START();
  int Data[256], Attr = 7, I;
  hsize_t Dims[1] = {256};
  hid_t Fapl = H5Pcreate(H5P_FILE_ACCESS), File, Space, Dset, A;
  for (I = 0; I < 256; ++I)
    Data[I] = I;
  check(H5Pset_fapl_mpio(Fapl, MPI_COMM_WORLD, MPI_INFO_NULL) >= 0, "fapl");
  File = H5Fcreate(Path, H5F_ACC_TRUNC, H5P_DEFAULT, Fapl);
  check(File >= 0, "H5Fcreate");
  Space = H5Screate_simple(1, Dims, NULL);
  Dset = H5Dcreate2(File, "d", H5T_NATIVE_INT, Space, H5P_DEFAULT, H5P_DEFAULT,
                    H5P_DEFAULT);
  check(Dset >= 0, "H5Dcreate2");
  check(H5Dwrite(Dset, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, Data) >= 0,
        "H5Dwrite");
  check(H5Dread(Dset, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, Data) >= 0,
        "H5Dread");
  A = H5Acreate2(Dset, "a", H5T_NATIVE_INT, H5Screate(H5S_SCALAR), H5P_DEFAULT,
                 H5P_DEFAULT);
  check(A >= 0 && H5Awrite(A, H5T_NATIVE_INT, &Attr) >= 0 &&
            H5Aread(A, H5T_NATIVE_INT, &Attr) >= 0 && H5Aclose(A) >= 0,
        "attribute");
  check(H5Dclose(Dset) >= 0 && H5Sclose(Space) >= 0 && H5Fclose(File) >= 0,
        "close");
  H5Pclose(Fapl);
  DFTRACER_C_FUNCTION_END();
}

int main(int argc, char **argv) {
  int Rank;
  MPI_Init(&argc, &argv);
  DFTRACER_C_INIT(NULL, NULL, NULL);
  DFTRACER_C_FUNCTION_START();
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  memset(Buf, 'm', sizeof(Buf));
  if (Rank == 0) {
    mkdir("data", 0755);
    mkdir("other", 0755);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  writePhase("data/shared.bin", Rank);
  readPhase("data/shared.bin", Rank);
  mpiForms("data/forms.bin", Rank);
  h5Phase("data/f.h5");
  h5Reopen("data/f.h5");
  writePhase("other/shared.bin", Rank);
  h5Phase("other/f.h5");
  DFTRACER_C_FUNCTION_END();
  DFTRACER_C_FINI();
  MPI_Finalize();
  return 0;
}
