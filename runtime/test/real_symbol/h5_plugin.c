/* A plugin that links HDF5 itself, loaded by plugin_host with RTLD_LOCAL:
 * its libhdf5 is in no global scope, so a preloaded wrapper's
 * dlsym(RTLD_NEXT) cannot find H5Fcreate (issue 37). Writes a dataset,
 * reads it back, returns 0 when it read what it wrote. */
#include <hdf5.h>

int h5_plugin_run(const char *Path) {
  enum { N = 4096 };
  static long long Out[N], In[N];
  hsize_t Dims[1] = {N};
  hid_t File, Space, Set;
  long long Sum = 0;
  int I;
  for (I = 0; I < N; ++I)
    Out[I] = I;
  File = H5Fcreate(Path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (File < 0)
    return 1;
  Space = H5Screate_simple(1, Dims, NULL);
  Set = H5Dcreate2(File, "x", H5T_NATIVE_LLONG, Space, H5P_DEFAULT,
                   H5P_DEFAULT, H5P_DEFAULT);
  if (Set < 0 || H5Dwrite(Set, H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL,
                          H5P_DEFAULT, Out) < 0)
    return 2;
  H5Dclose(Set);
  H5Sclose(Space);
  H5Fclose(File);
  File = H5Fopen(Path, H5F_ACC_RDONLY, H5P_DEFAULT);
  Set = File < 0 ? -1 : H5Dopen2(File, "x", H5P_DEFAULT);
  if (Set < 0 ||
      H5Dread(Set, H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, In) < 0)
    return 3;
  H5Dclose(Set);
  H5Fclose(File);
  for (I = 0; I < N; ++I)
    Sum += In[I];
  return Sum == (long long)N * (N - 1) / 2 ? 0 : 4;
}
