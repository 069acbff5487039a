# --chrome-trace output, plain and gzip, with and without filters, checked
# against the Trace Event Format by dftracer_trace_gen check-chrome.
include(${CMAKE_CURRENT_LIST_DIR}/run_common.cmake)
set(_dir ${WORK}/traces)
analysis_generate(${_dir} --files 4 --spans 1500 --threads 2 --mixed)
foreach(_case "all.json|-" "all.json.gz|-" "some.json.gz|--ranks;1,3;--layers;APP,POSIX;--window;0.001:")
  string(REPLACE "|" ";" _parts "${_case}")
  list(GET _parts 0 _name)
  list(SUBLIST _parts 1 -1 _filters)
  list(FILTER _filters EXCLUDE REGEX "^-$")
  analysis_run(_out _rc ${ANALYZE} ${_dir} --chrome-trace ${WORK}/${_name} ${_filters})
  if(NOT _rc EQUAL 0)
    analysis_fail("--chrome-trace ${_name} ${_filters} failed: ${_out}")
  endif()
  analysis_run(_out _rc ${GEN} check-chrome ${WORK}/${_name})
  message("${_name}: ${_out}")
  if(NOT _rc EQUAL 0)
    analysis_fail("${_name} is not valid Trace Event JSON")
  endif()
endforeach()
if(NOT _out MATCHES "in 2 processes")
  analysis_fail("--ranks 1,3 must keep two processes")
endif()
file(GLOB _parts_left ${WORK}/*.part*)
if(_parts_left)
  analysis_fail("parts left behind: ${_parts_left}")
endif()

# The export keeps the spans the analysis uses: one whose times are out of
# range (ts + dur past int64) is left out, as in the report.
file(WRITE ${WORK}/odd.pfw "[
{\"id\":1,\"name\":\"main\",\"cat\":\"C_APP\",\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":9,\"ph\":\"X\",\"args\":{\"level\":1,\"p_idx\":0}}
{\"id\":2,\"name\":\"pwrite64\",\"cat\":\"POSIX\",\"pid\":1,\"tid\":1,\"ts\":18446744073709551615,\"dur\":9223372036854775807,\"ph\":\"X\",\"args\":{\"level\":2,\"p_idx\":1,\"ret\":5}}
")
analysis_run(_out _rc ${ANALYZE} ${WORK}/odd.pfw --chrome-trace ${WORK}/odd.json)
analysis_run(_out _rc ${GEN} check-chrome ${WORK}/odd.json)
if(NOT _rc EQUAL 0 OR NOT _out MATCHES "check-chrome: 1 X events")
  analysis_fail("odd.json: ${_out}")
endif()

# The same bytes from one thread and from every core, and from two MPI ranks (each converts
# its own files; rank 0 joins the parts in file order).
analysis_run(_out _rc ${ANALYZE} -j 1 ${_dir} --chrome-trace ${WORK}/j1.json)
analysis_same(${WORK}/all.json ${WORK}/j1.json "--chrome-trace -j 1 vs all cores")
if(MPIEXEC)
  analysis_run(_out _rc ${MPIEXEC} -n 2 ${ANALYZE} ${_dir}
    --chrome-trace ${WORK}/mpi.json)
  if(NOT _rc EQUAL 0)
    analysis_fail("mpiexec -n 2 dftracer-analyze --chrome-trace failed: ${_out}")
  endif()
  analysis_same(${WORK}/all.json ${WORK}/mpi.json "--chrome-trace vs mpiexec -n 2")
endif()
