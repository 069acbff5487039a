/* tune_h5: an HDF5 program for dftracer-tune's DFTRACER_TUNE candidates
 * (tune.cmake).
 *
 *   tune_h5 -o DIR
 *
 * Creates DIR/data.h5 with the default property lists (the sec2 driver)
 * and writes one dataset of 1 MiB: the runtime applies a DFTRACER_TUNE
 * setting such as hdf5.alignment=4096,4096 at H5Fcreate and records it
 * (docs/runtime.md, "Tuning without rebuilding"). Exit 0, or 1 when a
 * call fails. */
#include <hdf5.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc != 3 || strcmp(argv[1], "-o") != 0) {
    fprintf(stderr, "usage: tune_h5 -o DIR\n");
    return 1;
  }
  char path[4096];
  snprintf(path, sizeof(path), "%s/data.h5", argv[2]);
  static double data[131072];
  hsize_t dims[1] = {131072};
  hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (file < 0)
    return 1;
  hid_t space = H5Screate_simple(1, dims, NULL);
  hid_t dset = H5Dcreate2(file, "values", H5T_NATIVE_DOUBLE, space, H5P_DEFAULT,
                          H5P_DEFAULT, H5P_DEFAULT);
  int ok = dset >= 0 && H5Dwrite(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL,
                                 H5P_DEFAULT, data) >= 0;
  if (dset >= 0)
    H5Dclose(dset);
  H5Sclose(space);
  return H5Fclose(file) >= 0 && ok ? 0 : 1;
}
