# The C++ sample kernels (test/inputs/kernels_cxx) and how the end-to-end
# tests run them. Included by CMakeLists.txt and by the cmake -P scripts
# beside it, after test/e2e/E2E.cmake, whose steps they reuse.
#
# E2E_ARGS_<name> may use {OUT} (the run's output folder, also its working
# folder), as in test/e2e/kernels.cmake.
#
# E2E_CXX_UNWIND_<name> = CATCHER THROUGH THROWER EXCEPTION AFTER names the
# exception path that check.cmake verifies in every trace (unwind.cmake):
# each CATCHER span has a THROUGH child, which has a THROWER child in which
# an EXCEPTION span ran (the exception object's constructor), and an AFTER
# child, called from the handler, that starts after THROUGH ended. A span
# left open by the unwinding would become AFTER's parent instead.
set(E2E_CXX_KERNEL_NAMES h5_checkpoint)

set(E2E_ARGS_h5_checkpoint "{OUT}" 3 1024)
set(E2E_CXX_UNWIND_h5_checkpoint restore_field read_field Dataset Error
    fallback_values)
