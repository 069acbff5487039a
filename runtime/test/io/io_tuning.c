/* The facts tuning needs (issue 22), under mpirun -np 2: MPI-IO hints set
 * with MPI_Info come back in MPIIO_HINTS; set_view's etype/filetype facts
 * for a contiguous and a strided view; HDF5_FILE with and without
 * H5Pset_alignment (mpio and sec2), HDF5_DSET for a chunked and a
 * contiguous dataset, and the transfer keys of collective and independent
 * H5Dwrite/H5Dread; and the memory alignment of the buffers of MPI-IO and
 * HDF5 transfers (`mem_align`: aligned buffers carry none, buffers 2 bytes
 * past a 64 KiB boundary carry 2). runtime.io_tuning greps the records. */
#include <hdf5.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void check(int Ok, const char *What) {
  if (!Ok) {
    fprintf(stderr, "io_tuning: %s failed\n", What);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

static void mpiio(const char *Path, int Rank) {
  MPI_Info Info;
  MPI_File Fh;
  MPI_Datatype Strided;
  int Data[16] = {0};
  MPI_Info_create(&Info);
  MPI_Info_set(Info, "romio_cb_read", "disable");
  MPI_Info_set(Info, "romio_cb_write", "enable");
  MPI_Info_set(Info, "romio_ds_write", "disable");
  MPI_Info_set(Info, "cb_buffer_size", "1048576");
  check(MPI_File_open(MPI_COMM_WORLD, Path, MPI_MODE_CREATE | MPI_MODE_RDWR,
                      Info, &Fh) == MPI_SUCCESS,
        "MPI_File_open");
  MPI_Info_free(&Info);
  check(MPI_File_set_view(Fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL) ==
            MPI_SUCCESS,
        "contiguous view");
  /* 4 ints, one every other int: 16 bytes over an extent of 28. */
  MPI_Type_vector(4, 1, 2, MPI_INT, &Strided);
  MPI_Type_commit(&Strided);
  check(MPI_File_set_view(Fh, Rank * 4, MPI_INT, Strided, "native",
                          MPI_INFO_NULL) == MPI_SUCCESS,
        "strided view");
  check(MPI_File_write_all(Fh, Data, 4, MPI_INT, MPI_STATUS_IGNORE) ==
            MPI_SUCCESS,
        "write_all");
  MPI_Type_free(&Strided);
  MPI_File_close(&Fh);
}

/* An mpio file, aligned, collective metadata, a chunked dataset written
 * collectively, half per rank. */
static void hdf5Parallel(const char *Path, int Rank) {
  hid_t Fapl = H5Pcreate(H5P_FILE_ACCESS), Dcpl, Dxpl, File, Space, Mem, Dset;
  hsize_t Dims[2] = {8, 16}, Chunk[2] = {4, 16}, Start[2] = {0, 0},
          Count[2] = {4, 16};
  int Data[64] = {0};
  check(H5Pset_fapl_mpio(Fapl, MPI_COMM_WORLD, MPI_INFO_NULL) >= 0, "fapl");
  check(H5Pset_alignment(Fapl, 1024, 4096) >= 0, "alignment");
  check(H5Pset_meta_block_size(Fapl, 8192) >= 0, "meta block");
  check(H5Pset_all_coll_metadata_ops(Fapl, 1) >= 0, "coll metadata ops");
  check(H5Pset_coll_metadata_write(Fapl, 1) >= 0, "coll metadata write");
  File = H5Fcreate(Path, H5F_ACC_TRUNC, H5P_DEFAULT, Fapl);
  check(File >= 0, "H5Fcreate mpio");
  Space = H5Screate_simple(2, Dims, NULL);
  Dcpl = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(Dcpl, 2, Chunk);
  H5Pset_fill_time(Dcpl, H5D_FILL_TIME_NEVER);
  Dset = H5Dcreate2(File, "/chunked", H5T_NATIVE_INT, Space, H5P_DEFAULT, Dcpl,
                    H5P_DEFAULT);
  check(Dset >= 0, "H5Dcreate2 chunked");
  Start[0] = (hsize_t)Rank * 4;
  H5Sselect_hyperslab(Space, H5S_SELECT_SET, Start, NULL, Count, NULL);
  Mem = H5Screate_simple(2, Count, NULL);
  Dxpl = H5Pcreate(H5P_DATASET_XFER);
  H5Pset_dxpl_mpio(Dxpl, H5FD_MPIO_COLLECTIVE);
  check(H5Dwrite(Dset, H5T_NATIVE_INT, Mem, Space, Dxpl, Data) >= 0,
        "H5Dwrite collective");
  H5Pset_dxpl_mpio(Dxpl, H5FD_MPIO_INDEPENDENT);
  check(H5Dread(Dset, H5T_NATIVE_INT, Mem, Space, Dxpl, Data) >= 0,
        "H5Dread independent");
  H5Pclose(Dxpl), H5Sclose(Mem), H5Sclose(Space), H5Pclose(Dcpl);
  H5Dclose(Dset), H5Fclose(File), H5Pclose(Fapl);
}

/* A file of this rank's own through the default driver (sec2), no
 * alignment set, a contiguous dataset written with the default transfer. */
static void hdf5Serial(const char *Path) {
  hsize_t Dims[1] = {100};
  int Data[100] = {0};
  hid_t File = H5Fcreate(Path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), Space,
        Dset;
  check(File >= 0, "H5Fcreate sec2");
  Space = H5Screate_simple(1, Dims, NULL);
  Dset = H5Dcreate2(File, "/group_less", H5T_NATIVE_DOUBLE, Space,
                    H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  check(Dset >= 0, "H5Dcreate2 contiguous");
  check(H5Dwrite(Dset, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, Data) >=
            0,
        "H5Dwrite default");
  H5Dclose(Dset);
  Dset = H5Dopen2(File, "/group_less", H5P_DEFAULT);
  check(Dset >= 0, "H5Dopen2");
  H5Dclose(Dset), H5Sclose(Space), H5Fclose(File);
}

/* Transfers from an aligned buffer (16 bytes) and from one 2 bytes past it
 * (8 bytes): MPI-IO at this rank's offset of a shared file, HDF5 in two
 * datasets of a file of this rank's own. */
static void memAlign(const char *MpiPath, const char *H5Path, int Rank) {
  unsigned char *Buf = aligned_alloc(1 << 16, 1 << 16);
  hsize_t Sixteen[1] = {16}, Eight[1] = {8};
  MPI_File Fh;
  hid_t File, Space, Dset;
  int I;
  check(Buf != NULL, "aligned_alloc");
  memset(Buf, 7, 1 << 16);
  check(MPI_File_open(MPI_COMM_WORLD, MpiPath, MPI_MODE_CREATE | MPI_MODE_RDWR,
                      MPI_INFO_NULL, &Fh) == MPI_SUCCESS,
        "MPI_File_open align");
  check(MPI_File_write_at(Fh, Rank * 32, Buf, 16, MPI_BYTE,
                          MPI_STATUS_IGNORE) == MPI_SUCCESS &&
            MPI_File_write_at(Fh, Rank * 32 + 16, Buf + 2, 8, MPI_BYTE,
                              MPI_STATUS_IGNORE) == MPI_SUCCESS &&
            MPI_File_read_at(Fh, Rank * 32, Buf, 16, MPI_BYTE,
                             MPI_STATUS_IGNORE) == MPI_SUCCESS &&
            MPI_File_read_at(Fh, Rank * 32 + 16, Buf + 2, 8, MPI_BYTE,
                             MPI_STATUS_IGNORE) == MPI_SUCCESS,
        "MPI-IO transfers");
  MPI_File_close(&Fh);
  File = H5Fcreate(H5Path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  check(File >= 0, "H5Fcreate align");
  for (I = 0; I < 2; ++I) {
    Space = H5Screate_simple(1, I ? Eight : Sixteen, NULL);
    Dset = H5Dcreate2(File, I ? "/off2" : "/off0", H5T_NATIVE_UCHAR, Space,
                      H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    check(Dset >= 0 &&
              H5Dwrite(Dset, H5T_NATIVE_UCHAR, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                       Buf + 2 * I) >= 0 &&
              H5Dread(Dset, H5T_NATIVE_UCHAR, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                      Buf + 2 * I) >= 0,
          "HDF5 transfers");
    H5Dclose(Dset), H5Sclose(Space);
  }
  H5Fclose(File);
  free(Buf);
}

int main(int argc, char **argv) {
  int Rank;
  char Path[64];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  if (Rank == 0)
    mkdir("data", 0755);
  MPI_Barrier(MPI_COMM_WORLD);
  mpiio("data/hints.bin", Rank);
  hdf5Parallel("data/parallel.h5", Rank);
  snprintf(Path, sizeof(Path), "data/serial%d.h5", Rank);
  hdf5Serial(Path);
  snprintf(Path, sizeof(Path), "data/align%d.h5", Rank);
  memAlign("data/align.bin", Path, Rank);
  MPI_Finalize();
  return 0;
}
