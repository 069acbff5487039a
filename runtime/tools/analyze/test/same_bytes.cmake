# The same report, byte for byte, whatever the number of threads, and
# under mpiexec -n 2 when MPIEXEC is given; with p_idx, and with half of
# the spans without it (parents found by time).
include(${CMAKE_CURRENT_LIST_DIR}/run_common.cmake)
foreach(_set with without)
  set(_dir ${WORK}/${_set})
  set(_np)
  if(_set STREQUAL "without")
    set(_np --no-parent odd)
  endif()
  analysis_generate(${_dir} --files 7 --spans 3000 --mixed --members 3
    --threads 2 --invalid --seed 11 ${_np})
  foreach(_format json text)
    set(_flag)
    if(_format STREQUAL "json")
      set(_flag --json)
    endif()
    foreach(_j 1 2 8)
      execute_process(COMMAND ${ANALYZE} -j ${_j} ${_flag} ${_dir}
        OUTPUT_FILE ${WORK}/j${_j}.${_format} RESULT_VARIABLE _rc)
      if(NOT _rc EQUAL 0)
        analysis_fail("dftracer-analyze -j ${_j} ${_flag} failed")
      endif()
    endforeach()
    analysis_same(${WORK}/j1.${_format} ${WORK}/j2.${_format} "-j1 vs -j2 (${_format})")
    analysis_same(${WORK}/j1.${_format} ${WORK}/j8.${_format} "-j1 vs -j8 (${_format})")
    if(MPIEXEC)
      execute_process(COMMAND ${MPIEXEC} -n 2 ${ANALYZE} -j 1 ${_flag} ${_dir}
        OUTPUT_FILE ${WORK}/mpi.${_format} RESULT_VARIABLE _rc)
      if(NOT _rc EQUAL 0)
        analysis_fail("mpiexec -n 2 dftracer-analyze ${_flag} failed")
      endif()
      analysis_same(${WORK}/j1.${_format} ${WORK}/mpi.${_format}
        "-j1 vs mpiexec -n 2 (${_format})")
    endif()
  endforeach()
endforeach()
message("identical across -j 1/2/8${MPIEXEC_NOTE}")
