# The sample kernels and how the end-to-end tests and the demo run them.
# Included by CMakeLists.txt and by the cmake -P scripts beside it.
#
# E2E_ARGS_<name> may use {OUT} (the run's output folder, also its working
# folder), {E2E} (the folder holding every kernel's work folder), {VARIANT}
# (original or annotated) and {SRC} (test/inputs/kernels).
# E2E_REQUIRES_<name> names a kernel whose run must come first.
set(E2E_KERNEL_NAMES vpic_writer vpic_reader mpiio_shared ior_driver
    h5_metadata_stress)
set(E2E_ARGS_vpic_writer "{OUT}" "{SRC}/vpic_writer.cfg")
set(E2E_ARGS_vpic_reader "{E2E}/vpic_writer/{VARIANT}/out/particles.h5"
    "{OUT}/report.txt")
set(E2E_REQUIRES_vpic_reader vpic_writer)
set(E2E_ARGS_mpiio_shared "{OUT}" 4096 8)
set(E2E_ARGS_ior_driver -a ALL -b 65536 -t 16384 -s 2 -i 2 -o "{OUT}/ior")
set(E2E_ARGS_h5_metadata_stress "{OUT}" "{SRC}/h5_metadata_stress.ini")

# E2E_RANK_OPTIONAL_<name>: why this kernel's traces may lack rank metadata.
# ior_driver's main calls ior_main(), which calls MPI_Init and MPI_Finalize,
# so INIT runs before MPI is up and FINI after it is gone; the runtime looks
# up the rank only at INIT and FINI.
set(E2E_RANK_OPTIONAL_ior_driver
    "INIT precedes MPI_Init and FINI follows MPI_Finalize")
