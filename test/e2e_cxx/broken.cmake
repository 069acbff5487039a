# Proves that the unwinding check (unwind.cmake) catches a span the exception
# leaves open: passes only when check.cmake's unwinding test FAILS.
#
# The golden annotated h5_checkpoint.cpp is changed so that read_field<T>()
# opens its span as C code would without the cleanup attribute, and closes
# it only on its normal return. When Dataset's constructor throws, the span
# stays open, and fallback_values(), called from restore_field's handler,
# is recorded inside it. Call counts and nesting are unchanged, so only the
# unwinding check can tell.
#
#   -DCHECKER= -DMPICXX= -DMPIEXEC= -DCFLAGS= -DLIBS= -DGOLDEN= -DCOUNTS= -DWORK=
cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/../e2e/E2E.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/kernels.cmake)
e2e_require(CHECKER MPICXX MPIEXEC GOLDEN COUNTS WORK)
e2e_split(MPIEXEC)
e2e_split(CFLAGS)
e2e_split(LIBS)
set(_name h5_checkpoint)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/annotated)
file(READ ${GOLDEN} _src)

set(_guarded [=[
{
    DFTRACER_CPP_FUNCTION();
    h5::File file(path, h5::Mode::ReadOnly, MPI_COMM_WORLD);
    h5::Dataset dset(file, name);
    return dset.read<T>(layout.offset, layout.count);
}]=])
set(_leaky [=[
{
    struct dftracer_span *span = dftracer_span_start_(__func__, "CPP_APP");
    h5::File file(path, h5::Mode::ReadOnly, MPI_COMM_WORLD);
    h5::Dataset dset(file, name);
    std::vector<T> values = dset.read<T>(layout.offset, layout.count);
    dftracer_span_finish_(&span);
    return values;
}]=])
string(FIND "${_src}" "${_guarded}" _at)
if(_at LESS 0)
  message(FATAL_ERROR "${GOLDEN} has no read_field body guarded as expected:\n${_guarded}")
endif()
string(REPLACE "${_guarded}" "${_leaky}" _src "${_src}")
file(WRITE ${WORK}/annotated/${_name}.cpp "${_src}")

e2e_compile(${MPICXX} ${WORK}/annotated/${_name}.cpp ${WORK}/annotated/${_name}
            "${CFLAGS}" "${LIBS}")
e2e_run_kernel(${_name} ${WORK} ${WORK} ${CMAKE_CURRENT_LIST_DIR} "${MPIEXEC}"
               annotated ${WORK}/traces/${_name})
# The leak is invisible to the counts and to the nesting check...
e2e_check_traces(${CHECKER} ${WORK}/traces/${_name} 2 ${COUNTS} _rc _out)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "dftracer-check rejected the leaky build; this case needs "
                      "it to pass so that only the unwinding check can fail:\n${_out}")
endif()
# ... and must be caught by the unwinding check, run as check.cmake runs it.
e2e_traces(_traces ${WORK}/traces/${_name})
list(GET _traces 0 _trace)
execute_process(
  COMMAND ${CMAKE_COMMAND} -DTRACE=${_trace} -DNAME=${_name}
          -P ${CMAKE_CURRENT_LIST_DIR}/unwind_one.cmake
  OUTPUT_VARIABLE _out ERROR_VARIABLE _out RESULT_VARIABLE _rc)
if(_rc EQUAL 0)
  message(FATAL_ERROR "the unwinding check accepted a span left open by the exception:\n${_out}")
endif()
# CMake wraps a FATAL_ERROR message's lines: match on the text unwrapped.
string(REGEX REPLACE "[ \t\n]+" " " _flat "${_out}")
if(NOT _flat MATCHES "left open by the unwinding")
  message(FATAL_ERROR "the unwinding check failed (${_rc}), but not for the "
                      "span left open:\n${_out}")
endif()
message(STATUS "the unwinding check rejected the leaky build as it should:\n${_out}")
