# The e2e kernels' traces (test/e2e, two ranks), analysed: the I/O each
# function issued must be what the kernel's code and arguments imply.
#   mpiio_shared 4096 8: per rank, write_phase issues 8 MPI-IO calls
#     (open, set_size, 2 set_view, write_all of 8 x 4096 doubles = 262144 B,
#     write_at_all of 4096 doubles = 32768 B, sync, close) and calls
#     write_header, which on rank 0 writes 64 B; read_phase issues 6 MPI-IO
#     calls (reading the same 294912 B) and 2 lseek that ROMIO makes for
#     MPI_File_get_size, which is not intercepted.
#   vpic_writer (8192 particles, 5 steps, 8 datasets): write_dataset is
#     H5Dcreate2 + H5Dwrite + H5Dclose, 80 times, 32768 B each, written
#     (what ROMIO reads back for a read-modify-write of the independent
#     writes depends on how far the other rank's writes got: not checked).
#   ior_driver -b 65536 -t 16384 -s 2 -i 2: MPIIO_Xfer moves 16384 B per
#     call, 64 calls; transfer_all moves 1 MiB per backend, 3 backends.
#   -DANALYZE= -DGEN= -DTRACES=<dir> -DEXPECTED=<json> -DWORK=<dir>
include(${CMAKE_CURRENT_LIST_DIR}/run_common.cmake)
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${ANALYZE} --strict --json ${TRACES}
  OUTPUT_FILE ${WORK}/report.json ERROR_VARIABLE _err RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  analysis_fail("dftracer-analyze --strict on ${TRACES} failed (${_rc}): ${_err}")
endif()
analysis_run(_out _rc ${GEN} compare ${EXPECTED} ${WORK}/report.json
  --partial)
message("${_out}")
if(NOT _rc EQUAL 0)
  analysis_fail("the kernel's I/O attribution differs from ${EXPECTED}")
endif()
