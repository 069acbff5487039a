/* HDF5's 1.6 API (io_hdf5_16.expect), as IOR builds it: with
 * -DH5_USE_16_API, H5Dcreate, H5Dopen, H5Gcreate, H5Gopen and H5Acreate
 * are the numbered forms H5Dcreate1, H5Dopen1, H5Gcreate1, H5Gopen1 and
 * H5Acreate1, which the runtime must trace as it does their 2 forms; and
 * H5Oget_info in each form the library exports. One process, the default
 * (sec2) file driver; MPI is initialised because libhdf5 is MPICH's. */
#include <dftracer/dftracer.h>

#include <hdf5.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#ifndef H5_USE_16_API
#error "build with -DH5_USE_16_API"
#endif

static void check(int Ok, const char *What) {
  if (!Ok) {
    fprintf(stderr, "io_hdf5_16: %s failed\n", What);
    exit(1);
  }
}

static void createAll(const char *Path) {
  DFTRACER_C_FUNCTION_START();
  int Data[16] = {0};
  hsize_t Dims[1] = {16};
  hid_t File, Group, Space, Set, Attr;
  check((File = H5Fcreate(Path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT)) >= 0,
        "H5Fcreate");
  check((Group = H5Gcreate(File, "/g", 0)) >= 0, "H5Gcreate");
  check((Space = H5Screate_simple(1, Dims, NULL)) >= 0, "H5Screate_simple");
  check((Set = H5Dcreate(Group, "d", H5T_NATIVE_INT, Space, H5P_DEFAULT)) >= 0,
        "H5Dcreate");
  check(H5Dwrite(Set, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, Data) >= 0,
        "H5Dwrite");
  check((Attr = H5Acreate(Set, "a", H5T_NATIVE_INT, Space, H5P_DEFAULT)) >= 0,
        "H5Acreate");
  check(H5Aclose(Attr) >= 0, "H5Aclose");
  check(H5Dclose(Set) >= 0, "H5Dclose");
  check(H5Sclose(Space) >= 0, "H5Sclose");
  check(H5Gclose(Group) >= 0, "H5Gclose");
  check(H5Fclose(File) >= 0, "H5Fclose");
  DFTRACER_C_FUNCTION_END();
}

static void openAll(const char *Path) {
  DFTRACER_C_FUNCTION_START();
  H5O_info_t Info;
  hid_t File, Group, Set;
  int I;
  check((File = H5Fopen(Path, H5F_ACC_RDONLY, H5P_DEFAULT)) >= 0, "H5Fopen");
  for (I = 0; I < 3; ++I) {
    check((Group = H5Gopen(File, "/g")) >= 0, "H5Gopen");
    check((Set = H5Dopen(Group, "d")) >= 0, "H5Dopen");
    check(H5Dclose(Set) >= 0, "H5Dclose");
    check(H5Gclose(Group) >= 0, "H5Gclose");
  }
  check(H5Oget_info(File, &Info) >= 0, "H5Oget_info");
  check(H5Oget_info1(File, &Info) >= 0, "H5Oget_info1");
  check(H5Oget_info2(File, &Info, H5O_INFO_BASIC) >= 0, "H5Oget_info2");
  check(H5Fclose(File) >= 0, "H5Fclose");
  DFTRACER_C_FUNCTION_END();
}

int main(int argc, char **argv) {
  DFTRACER_C_INIT(NULL, NULL, NULL);
  MPI_Init(&argc, &argv);
  mkdir("data", 0755);
  createAll("data/f16.h5");
  openAll("data/f16.h5");
  MPI_Finalize();
  DFTRACER_C_FINI();
  return 0;
}
