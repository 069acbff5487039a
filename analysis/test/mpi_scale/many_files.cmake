# 3,000 trace files of 24 spans each (--real-shape: the runtime's hashes,
# timestamps and names), analysed with -j 1, -j 2, mpiexec -n 2 and
# mpiexec -n 3: every report the same bytes. Each MPI rank reads every
# other (third) file of the largest-first list and the partial aggregates
# are merged in a tree (Mpi.cpp), so a merge that depended on its order, a
# member the archive forgot or a file read twice or never would show here.
#   cmake -DGEN=... -DANALYZE=... -DMPIEXEC=... -DWORK=... -P many_files.cmake
include(${CMAKE_CURRENT_LIST_DIR}/../run_common.cmake)
set(_dir ${WORK}/traces)
analysis_generate(${_dir} --files 3000 --spans 24 --seed 41 --compute 4
  --real-shape --expected ${WORK}/expected.json)

# report(<name> COMMAND...): the command's --json report, stdout only.
function(report name)
  execute_process(COMMAND ${ARGN} --json ${_dir} RESULT_VARIABLE _rc
    OUTPUT_FILE ${WORK}/${name}.json ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    analysis_fail("${ARGN} --json failed (${_rc}): ${_err}")
  endif()
endfunction()

report(j1 ${ANALYZE} -j 1)
# Every file counted once: the generator's totals.
file(READ ${WORK}/j1.json _j1)
file(READ ${WORK}/expected.json _expected)
foreach(_key files events spans text_bytes)
  string(JSON _got GET "${_j1}" ${_key})
  string(JSON _want GET "${_expected}" ${_key})
  if(NOT _got EQUAL _want)
    analysis_fail("-j 1: ${_key} ${_got}, expected ${_want}")
  endif()
endforeach()
string(JSON _ranks GET "${_j1}" ranks count)
if(NOT _ranks EQUAL 3000)
  analysis_fail("-j 1: ${_ranks} ranks, expected 3000")
endif()
report(j2 ${ANALYZE} -j 2)
analysis_same(${WORK}/j1.json ${WORK}/j2.json "-j 1 vs -j 2")
report(mpi2 ${MPIEXEC} -n 2 ${ANALYZE} -j 1)
analysis_same(${WORK}/j1.json ${WORK}/mpi2.json "-j 1 vs mpiexec -n 2")
report(mpi3 ${MPIEXEC} -n 3 ${ANALYZE} -j 1)
analysis_same(${WORK}/j1.json ${WORK}/mpi3.json "-j 1 vs mpiexec -n 3")
message("3000 files: -j 1, -j 2, mpiexec -n 2 and -n 3 print the same "
  "report (${_ranks} ranks)")
