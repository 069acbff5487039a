# integration.make.run: the program built by annotate-cc runs under mpiexec
# with 2 ranks and writes valid traces, one span per call of every function
# annotate-cc annotated (legacy_scale, compiled as it was: none).
include(${CMAKE_CURRENT_LIST_DIR}/Integration.cmake)
int_require(WORK MPIEXEC CHECKER)

file(REMOVE_RECURSE "${WORK}/out")
file(MAKE_DIRECTORY "${WORK}/out")
int_mpirun(_r "${WORK}/traces" "${WORK}/src/app" "${WORK}/out")
int_expect_match("${_r_OUT}" "checksum 5345518, scaled 5345518" "program output")
file(READ "${WORK}/out/report-1.txt" _report)
int_expect_match("${_report}" "rank 1 checksum 2963679" "report-1.txt")
int_check_traces("${WORK}/traces" "${CMAKE_CURRENT_LIST_DIR}/make_project/app.counts.json")
