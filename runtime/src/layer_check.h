/*===- layer_check.h - Do the program's calls reach the wrappers? ---------===*
 *
 * In linked mode the program's calls bind to the first library of the
 * global lookup scope that defines them: the executable's NEEDED order. A
 * program linked `-lhdf5 -ldftracer_core` calls libhdf5's H5Dwrite, never
 * the runtime's, and its HDF5 layer is empty. So when the library loads
 * with tracing on, each layer that is on is checked once: what
 * dlsym(RTLD_DEFAULT) finds for a representative symbol (POSIX `read`,
 * STDIO `fopen`, MPI-IO `MPI_File_open`, HDF5 `H5Dwrite`) must be in the
 * object that holds the runtime (dladdr). A layer whose symbol resolves
 * elsewhere gets one warning on stderr (the layer, the library that won,
 * the fix) and a `layer_bypassed` record at the top of every trace file
 * the process writes (docs/trace-format.md).
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_LAYER_CHECK_H
#define DFTRACER_RUNTIME_LAYER_CHECK_H

/* At load, tracing on: check the layers of IoLayers (DftLayer* bits).
 * May allocate. Returns the number of layers bypassed. */
int dftracer_layer_check(unsigned IoLayers);

/* Later, tracing on: Layer's calls reach the runtime but pass straight
 * through untraced, for a reason found at run time (mpi_abi.c: an MPI the
 * MPI-IO layer was not built for). Says `dftracer: the LAYER layer is not
 * traced: WHY; fix: FIX` on stderr and writes a layer_bypassed record
 * (Symbol, Library, Fix): now, on this thread, when the trace file is
 * open, and at the top of every file opened later. Once per layer; not
 * for a layer the load-time check already found bypassed. */
void dftracer_layer_not_traced(unsigned Layer, const char *Symbol,
                               const char *Library, const char *Why,
                               const char *Fix);

/* Right after the trace file opens (writer.c), process lock held: write
 * the layer_bypassed records to the sink. No allocation. */
void dftracer_layer_report_locked(void);

#endif
