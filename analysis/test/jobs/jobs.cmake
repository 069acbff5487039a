# Jobs (issue 36): traces of several programs read together are grouped by
# job (the CONFIG's executable and arguments), and cache_bound and
# redundant_traffic judge each job on its own; a finding's ranks name their
# program. Hand-made traces, one process each (job_trace below):
#   readers: reader_a and reader_b each read /scratch/in.dat once: no
#            redundant_traffic (before: 4 MiB "read again by another process")
#   twice:   reader_twice's two ranks both read /scratch/in.dat, beside
#            reader_a reading it too: redundant_traffic for reader_twice
#            only, its 4 MiB of 8 MiB, ranks reader_twice:0 and :1
#   cache:   writer writes /scratch/data, reader (another job) reads it:
#            no cache_bound; writeread writes /scratch/wr and reads it
#            back: cache_bound for writeread only (before: one finding over
#            the set, /scratch/data among its files)
#   relaunch: reader_once run twice (two launches of one command: CONFIG's
#            "launch"), rank 0 of each reads /scratch/in.dat: two jobs,
#            labelled reader_once#1:0 and reader_once#2:0, no
#            redundant_traffic (before: one job, its rank 0 reading twice)
#   shared:  writer_s (rank 0) writes /scratch/s, checker (another job) opens
#            it without moving a byte: no single_rank_io; funnel's rank 0
#            writes /scratch/f that its rank 1 opens: single_rank_io for
#            funnel:0 (before: writer_s:0 too, "moves 100% of /scratch/s")
include(${CMAKE_CURRENT_LIST_DIR}/../run_common.cmake)

# job_trace(<file> <pid> <exe> <rank> OPS...): one process of <exe> on host
# node1 (64 GiB), an OP being "read:PATH[:N]" or "write:PATH[:N]" (pread64,
# pwrite64) or "pread:PATH[:N]" (pread, another call site): N calls
# (default 4) of 1 MiB at offsets 0, 1 MiB, ... between an open and a close.
# With JOB_LAUNCH set, CONFIG records it as the process's launch.
function(job_trace file pid exe rank)
  set(_launch)
  if(DEFINED JOB_LAUNCH)
    set(_launch ",\"launch\":\"${JOB_LAUNCH}\"")
  endif()
  set(_t "[\n")
  string(APPEND _t "{\"id\":1,\"name\":\"NODE\",\"cat\":\"dftracer\",\"pid\":${pid},\"tid\":${pid},\"ph\":\"M\",\"args\":{\"hostname\":\"node1\",\"mem_total\":68719476736,\"cpus\":8}}\n")
  string(APPEND _t "{\"id\":2,\"name\":\"CONFIG\",\"cat\":\"dftracer\",\"pid\":${pid},\"tid\":${pid},\"ph\":\"M\",\"args\":{\"exe\":\"/bin/${exe}\",\"argv\":[\"./${exe}\"],\"argv_dropped\":0,\"cwd\":\"/scratch\",\"env\":{},\"env_dropped\":0,\"glibc\":\"2.36\"${_launch}}}\n")
  string(APPEND _t "{\"id\":3,\"name\":\"CM\",\"cat\":\"dftracer\",\"pid\":${pid},\"tid\":${pid},\"ph\":\"M\",\"args\":{\"name\":\"rank\",\"value\":\"${rank}\"}}\n")
  set(_id 10)
  set(_ts 1000)
  set(_h 500)
  foreach(_op ${ARGN})
    string(REPLACE ":" ";" _parts "${_op}")
    list(GET _parts 0 _kind)
    list(GET _parts 1 _path)
    set(_calls 4)
    list(LENGTH _parts _nparts)
    if(_nparts GREATER 2)
      list(GET _parts 2 _calls)
    endif()
    math(EXPR _h "${_h} + 1")
    math(EXPR _id "${_id} + 1")
    string(APPEND _t "{\"id\":${_id},\"name\":\"FH\",\"cat\":\"dftracer\",\"pid\":${pid},\"tid\":${pid},\"ph\":\"M\",\"args\":{\"name\":\"${_path}\",\"value\":${_h}}}\n")
    math(EXPR _id "${_id} + 1")
    math(EXPR _ts "${_ts} + 100")
    string(APPEND _t "{\"id\":${_id},\"name\":\"open64\",\"cat\":\"POSIX\",\"pid\":${pid},\"tid\":${pid},\"ts\":${_ts},\"dur\":10,\"ph\":\"X\",\"args\":{\"fhash\":${_h},\"flags\":66,\"ret\":5}}\n")
    set(_i 0)
    while(_i LESS _calls)
      math(EXPR _id "${_id} + 1")
      math(EXPR _ts "${_ts} + 1000")
      math(EXPR _off "${_i} * 1048576")
      set(_name pread64)
      if(_kind STREQUAL "write")
        set(_name pwrite64)
      elseif(_kind STREQUAL "pread")
        set(_name pread)
      endif()
      string(APPEND _t "{\"id\":${_id},\"name\":\"${_name}\",\"cat\":\"POSIX\",\"pid\":${pid},\"tid\":${pid},\"ts\":${_ts},\"dur\":800,\"ph\":\"X\",\"args\":{\"fhash\":${_h},\"fd\":5,\"count\":1048576,\"offset\":${_off},\"ret\":1048576}}\n")
      math(EXPR _i "${_i} + 1")
    endwhile()
    math(EXPR _id "${_id} + 1")
    math(EXPR _ts "${_ts} + 1000")
    string(APPEND _t "{\"id\":${_id},\"name\":\"close\",\"cat\":\"POSIX\",\"pid\":${pid},\"tid\":${pid},\"ts\":${_ts},\"dur\":10,\"ph\":\"X\",\"args\":{\"fhash\":${_h},\"fd\":5,\"ret\":0}}\n")
  endforeach()
  math(EXPR _id "${_id} + 1")
  math(EXPR _ts "${_ts} + 1000")
  string(APPEND _t "{\"id\":${_id},\"name\":\"trace_end\",\"cat\":\"dftracer\",\"pid\":${pid},\"tid\":${pid},\"ph\":\"M\",\"args\":{\"ts\":${_ts}}}\n")
  file(WRITE ${file} "${_t}")
endfunction()

# joined(<out-var> <list-json> <i> <array> [<field>]): the values of the
# i-th finding's <array> (or of each entry's <field>), joined by ",".
function(joined out list i array)
  set(_values)
  string(JSON _n LENGTH "${list}" ${i} ${array})
  if(_n GREATER 0)
    math(EXPR _last "${_n} - 1")
    foreach(_j RANGE ${_last})
      string(JSON _v GET "${list}" ${i} ${array} ${_j} ${ARGN})
      list(APPEND _values "${_v}")
    endforeach()
  endif()
  string(REPLACE ";" "," _values "${_values}")
  set(${out} "${_values}" PARENT_SCOPE)
endfunction()

# findings(<set> <kind> <out-var>): the findings of <kind> of the set's
# --diagnose --json, as "summary|rank,rank|path,path" entries, and
# <out-var>_COST the first one's cost in calls and the chains of its
# sites, as "OPS|chain,chain".
function(findings set kind out)
  analysis_run(_json _rc ${ANALYZE} --diagnose --json ${WORK}/${set})
  if(NOT _rc EQUAL 0)
    analysis_fail("dftracer-analyze --diagnose --json ${set} failed: ${_json}")
  endif()
  string(JSON _list GET "${_json}" findings)
  string(JSON _n LENGTH "${_list}")
  set(_found)
  set(_cost)
  if(_n GREATER 0)
    math(EXPR _last "${_n} - 1")
    foreach(_i RANGE ${_last})
      string(JSON _k GET "${_list}" ${_i} kind)
      if(NOT _k STREQUAL kind)
        continue()
      endif()
      string(JSON _s GET "${_list}" ${_i} summary)
      joined(_ranks "${_list}" ${_i} ranks)
      joined(_paths "${_list}" ${_i} files path)
      list(APPEND _found "${_s}|${_ranks}|${_paths}")
      if(NOT _cost)
        string(JSON _ops GET "${_list}" ${_i} ops)
        joined(_chains "${_list}" ${_i} sites chain)
        set(_cost "${_ops}|${_chains}")
      endif()
    endforeach()
  endif()
  set(${out} "${_found}" PARENT_SCOPE)
  set(${out}_COST "${_cost}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/readers ${WORK}/twice ${WORK}/cache
  ${WORK}/relaunch ${WORK}/shared)
job_trace(${WORK}/readers/a.pfw 11 reader_a 0 read:/scratch/in.dat)
job_trace(${WORK}/readers/b.pfw 12 reader_b 0 read:/scratch/in.dat)
job_trace(${WORK}/twice/t0.pfw 21 reader_twice 0 read:/scratch/in.dat)
job_trace(${WORK}/twice/t1.pfw 22 reader_twice 1 read:/scratch/in.dat)
job_trace(${WORK}/twice/a.pfw 23 reader_a 0 pread:/scratch/in.dat)
job_trace(${WORK}/cache/w.pfw 31 writer 0 write:/scratch/data)
job_trace(${WORK}/cache/r.pfw 32 reader 0 read:/scratch/data)
job_trace(${WORK}/cache/wr.pfw 33 writeread 0 write:/scratch/wr read:/scratch/wr)
job_trace(${WORK}/cache/o.pfw 34 other 0 pread:/scratch/other)
set(JOB_LAUNCH "ppid:node1:100:5000")
job_trace(${WORK}/relaunch/l1.pfw 41 reader_once 0 read:/scratch/in.dat)
set(JOB_LAUNCH "ppid:node1:200:9000")
job_trace(${WORK}/relaunch/l2.pfw 42 reader_once 0 read:/scratch/in.dat)
unset(JOB_LAUNCH)
job_trace(${WORK}/shared/w.pfw 51 writer_s 0 write:/scratch/s)
job_trace(${WORK}/shared/c.pfw 52 checker 0 read:/scratch/s:0)
job_trace(${WORK}/shared/f0.pfw 53 funnel 0 write:/scratch/f)
job_trace(${WORK}/shared/f1.pfw 54 funnel 1 read:/scratch/f:0)

findings(readers redundant_traffic _f)
if(_f)
  analysis_fail("two programs that each read /scratch/in.dat once: no redundant_traffic expected, got: ${_f}")
endif()

findings(twice redundant_traffic _f)
list(LENGTH _f _n)
if(NOT _n EQUAL 1)
  analysis_fail("reader_twice: one redundant_traffic expected, got ${_n}: ${_f}")
endif()
if(NOT _f MATCHES "^4194304 B \\(50.0% of the bytes\\).* of reader_twice\\|reader_twice:0,reader_twice:1\\|/scratch/in.dat$")
  analysis_fail("reader_twice's redundant_traffic: 4194304 B of its 8 MiB, its two ranks, /scratch/in.dat expected, got: ${_f}")
endif()

# A per-job finding costs its job's calls and lists its job's call sites:
# reader_twice's 8 reads moved half their bytes again (4 calls), and
# reader_a's pread in the same set is not reader_twice's site.
if(NOT _f_COST STREQUAL "4|(no function) > pread64")
  analysis_fail("reader_twice's redundant_traffic: 4 calls at pread64 alone expected, got: ${_f_COST}")
endif()

findings(cache cache_bound _f)
list(LENGTH _f _n)
if(NOT _n EQUAL 1)
  analysis_fail("cache: one cache_bound (writeread) expected, got ${_n}: ${_f}")
endif()
if(NOT _f MATCHES "^4194304 B read back after being written in the same job \\(writeread\\), whose 4194304 B written .*\\|writeread:0\\|/scratch/wr$")
  analysis_fail("cache_bound of writeread alone expected (not the writer's data read by the reader), got: ${_f}")
endif()
if(NOT _f_COST STREQUAL "4|(no function) > pread64")
  analysis_fail("writeread's cache_bound: its 4 read calls at pread64 alone expected (not other's pread), got: ${_f_COST}")
endif()
findings(relaunch redundant_traffic _f)
if(_f)
  analysis_fail("two launches of reader_once, each reading /scratch/in.dat once: no redundant_traffic expected, got: ${_f}")
endif()
analysis_run(_json _rc ${ANALYZE} --json ${WORK}/relaunch)
string(JSON _r0 GET "${_json}" ranks list 0 rank)
string(JSON _r1 GET "${_json}" ranks list 1 rank)
if(NOT "${_r0},${_r1}" STREQUAL "reader_once#1:0,reader_once#2:0")
  analysis_fail("two launches of one command: ranks reader_once#1:0 and reader_once#2:0 expected, got ${_r0}, ${_r1}")
endif()

findings(shared single_rank_io _f)
list(LENGTH _f _n)
if(NOT _n EQUAL 1)
  analysis_fail("shared: one single_rank_io (funnel) expected, got ${_n}: ${_f}")
endif()
if(NOT _f MATCHES "^funnel:0 moves 100.0% of the 4194304 B of /scratch/f \\(2 processes opened it\\)\\|funnel:0\\|/scratch/f$")
  analysis_fail("single_rank_io of funnel:0 on /scratch/f alone expected (not writer_s's file that another job opened), got: ${_f}")
endif()
message("jobs: redundant_traffic, cache_bound and single_rank_io judged per job and launch")
