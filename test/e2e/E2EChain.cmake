# e2e_chain(): the four chained CTest fixtures of one kernel, shared by the
# C kernels (test/e2e) and the C++ ones (test/e2e_cxx):
#
#   e2e.NAME.annotate -> e2e.NAME.build -> e2e.NAME.run -> e2e.NAME.check
#
# e2e_chain(NAME name SOURCE file GOLDEN file COUNTS file WORK dir
#           FIXTURE prefix SCRIPTS dir COMPILER wrapper
#           PARSE_FLAGS f|f CFLAGS f|f LIBS l|l MPIEXEC m|m NP n
#           [BUILD_TIMEOUT s] [RUN_ARGS -DVAR=...] [RUN_REQUIRES fixture...])
#
# SCRIPTS holds the language's annotate.cmake, run.cmake and check.cmake;
# build.cmake (beside this file) serves both. Lists travel to the scripts
# with '|' in place of ';'. Fixtures are named PREFIX_NAME_annotated,
# _built and _ran, so that other tests can require a phase.
function(e2e_chain)
  cmake_parse_arguments(K ""
    "NAME;SOURCE;GOLDEN;COUNTS;WORK;FIXTURE;SCRIPTS;COMPILER;PARSE_FLAGS;CFLAGS;LIBS;MPIEXEC;NP;BUILD_TIMEOUT"
    "RUN_ARGS;RUN_REQUIRES" ${ARGN})
  if(NOT K_BUILD_TIMEOUT)
    set(K_BUILD_TIMEOUT 120)
  endif()
  get_filename_component(_file ${K_SOURCE} NAME)
  set(_fixture ${K_FIXTURE}_${K_NAME})
  set(_test e2e.${K_NAME})

  add_test(NAME ${_test}.annotate
    COMMAND ${CMAKE_COMMAND}
      -DANNOTATE=$<TARGET_FILE:annotate>
      -DNAME=${K_NAME}
      -DSRC=${K_SOURCE}
      -DGOLDEN=${K_GOLDEN}
      -DOUT=${K_WORK}/annotated/${_file}
      -DFLAGS=${K_PARSE_FLAGS}
      -P ${K_SCRIPTS}/annotate.cmake)
  set_tests_properties(${_test}.annotate PROPERTIES
    LABELS "e2e;annotate" FIXTURES_SETUP ${_fixture}_annotated TIMEOUT 120)

  add_test(NAME ${_test}.build
    COMMAND ${CMAKE_COMMAND}
      -DMPICC=${K_COMPILER}
      -DSOURCES=${K_SOURCE}|${K_WORK}/annotated/${_file}
      -DEXES=${K_WORK}/original/${K_NAME}|${K_WORK}/annotated/${K_NAME}
      -DCFLAGS=${K_CFLAGS}
      -DLIBS=${K_LIBS}
      -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/build.cmake)
  set_tests_properties(${_test}.build PROPERTIES
    LABELS "e2e;build" FIXTURES_REQUIRED ${_fixture}_annotated
    FIXTURES_SETUP ${_fixture}_built TIMEOUT ${K_BUILD_TIMEOUT})

  set(_run_requires ${_fixture}_built ${K_RUN_REQUIRES})
  add_test(NAME ${_test}.run
    COMMAND ${CMAKE_COMMAND}
      -DMPIEXEC=${K_MPIEXEC}
      -DNAME=${K_NAME}
      -DWORK=${K_WORK}
      ${K_RUN_ARGS}
      -P ${K_SCRIPTS}/run.cmake)
  set_tests_properties(${_test}.run PROPERTIES
    LABELS "e2e;run" FIXTURES_REQUIRED "${_run_requires}"
    FIXTURES_SETUP ${_fixture}_ran RESOURCE_LOCK e2e_mpi TIMEOUT 180)

  add_test(NAME ${_test}.check
    COMMAND ${CMAKE_COMMAND}
      -DCHECKER=$<TARGET_FILE:dftracer-check>
      -DNAME=${K_NAME}
      -DWORK=${K_WORK}
      -DNP=${K_NP}
      -DCOUNTS=${K_COUNTS}
      -DIO_CHECKER=$<TARGET_FILE:dft-io-expect>
      -P ${K_SCRIPTS}/check.cmake)
  set_tests_properties(${_test}.check PROPERTIES
    LABELS "e2e;check" FIXTURES_REQUIRED ${_fixture}_ran TIMEOUT 120)
endfunction()
