# h5py writes a dataset and an attribute, then reads them back (issue 37):
# run with Debian's /usr/bin/python3 under LD_PRELOAD by real_symbol.cmake.
# h5py loads libhdf5_serial with RTLD_LOCAL, so the runtime's HDF5 wrappers
# must find the real functions outside dlsym(RTLD_NEXT)'s reach.
# Prints what it read; exits 0 when it read what it wrote.
import sys

import h5py

path = sys.argv[1]
with h5py.File(path, "w") as f:
    d = f.create_dataset("x", (4096,), dtype="i8")
    d[:] = range(4096)
    d.attrs["unit"] = 7
with h5py.File(path, "r") as f:
    x = f["x"][:]
    unit = int(f["x"].attrs["unit"])
total = int(x.sum())
print("read", len(x), "values, sum", total, "unit", unit)
sys.exit(0 if total == 4096 * 4095 // 2 and unit == 7 else 1)
