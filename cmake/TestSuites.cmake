# Test suites whose dependencies may be missing (MPI, HDF5, strace,
# valgrind, Chromium, GoogleTest, clang-19, ...). Each records itself:
#
#   dft_suite(runtime.io_strace)                        registered
#   dft_suite(runtime.io_strace SKIPPED "strace not found")   left out
#
# A developer's partial machine gets a STATUS line per suite left out, as
# before. With DFT_REQUIRE_ALL_SUITES (ON when the environment says CI=true,
# as CI's does; scripts/test.sh passes it then), configuring fails when any
# suite would be left out, so "100% tests passed" can never mean "on far
# fewer tests". The list is written to <build>/test-suites.txt, which
# scripts/test.sh prints after the tests ("suites: 24 of 24 ran").
include_guard(GLOBAL)

set(_dft_ci OFF)
if("$ENV{CI}" STREQUAL "true")
  set(_dft_ci ON)
endif()
option(DFT_REQUIRE_ALL_SUITES
  "Fail the configure when a test suite would be left out (CI)" ${_dft_ci})

function(dft_suite name)
  cmake_parse_arguments(S "" "SKIPPED" "" ${ARGN})
  if(DEFINED S_SKIPPED)
    message(STATUS "${name}: ${S_SKIPPED}; the suite is left out")
    set_property(GLOBAL APPEND PROPERTY DFT_SUITES_SKIPPED
      "${name}: ${S_SKIPPED}")
  else()
    set_property(GLOBAL APPEND PROPERTY DFT_SUITES_RUN "${name}")
  endif()
endfunction()

# Called once, deferred to the end of the top-level directory by its last
# line, so after every suite has recorded itself (analysis/test's deferred
# e2e suites included, which were deferred before it).
function(dft_suites_check)
  get_property(_run GLOBAL PROPERTY DFT_SUITES_RUN)
  get_property(_skipped GLOBAL PROPERTY DFT_SUITES_SKIPPED)
  list(LENGTH _run _nrun)
  list(LENGTH _skipped _nskipped)
  math(EXPR _total "${_nrun} + ${_nskipped}")
  set(_text "suites: ${_nrun} of ${_total} registered")
  foreach(_s ${_run})
    string(APPEND _text "\nran ${_s}")
  endforeach()
  foreach(_s ${_skipped})
    string(APPEND _text "\nskipped ${_s}")
  endforeach()
  file(WRITE ${CMAKE_BINARY_DIR}/test-suites.txt "${_text}\n")
  if(_nskipped GREATER 0)
    string(REPLACE ";" "\n  " _list "${_skipped}")
    if(DFT_REQUIRE_ALL_SUITES)
      message(FATAL_ERROR "DFT_REQUIRE_ALL_SUITES (CI=true): ${_nskipped} of "
        "${_total} test suites would be left out:\n  ${_list}\n"
        "Install what is missing (scripts/bootstrap.sh), or configure with "
        "-DDFT_REQUIRE_ALL_SUITES=OFF on a partial machine.")
    endif()
    message(STATUS "${_nskipped} of ${_total} test suites left out:\n  ${_list}")
  endif()
endfunction()
