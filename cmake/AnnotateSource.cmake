# AnnotateSource.cmake - the build step of annotate_target() for one source.
#
#   cmake -DANNOTATE=<annotate> -DSOURCE=<original> -DOUTPUT=<copy>
#         -DFLAGS=<flags file> -DTARGET=<name> [-DSTRICT=ON]
#         [-DCOVERAGE=<record file>]
#         -P AnnotateSource.cmake
#
# Runs `annotate SOURCE --line-directives [--rules ...] -- <flags>` and writes
# the result to OUTPUT (through a temporary file, so a failed or interrupted
# run never leaves a partial copy). The flags file is written at generate
# time by annotate_target() (AnnotateTarget.cmake), one entry per line:
#
#   LANG:C | LANG:CXX          the source's language
#   RULES:<file>               the rule set (a JSON file)
#   BRACES:<policy>            --braces, when given
#   META:<key=value>           --meta, repeatable
#   OPT:<argument>             any other annotate argument (OPTIONS)
#   XARG:<flag>                annotate --extra-arg (EXTRA_ARGS)
#   STD:<n>, EXT:<bool>        the target's <LANG>_STANDARD and _EXTENSIONS
#   I:<dir>, D:<def>           include directories and definitions
#   O:<option>                 compile options (SHELL: groups allowed)
#   F:<flags>                  flag strings (CMAKE_<LANG>_FLAGS, COMPILE_FLAGS)
#   SYS:<dir>                  the compiler's own include directories
#   PCH:<header>               the target's precompile header (CMake's
#                              cmake_pch.h[xx]), when it exists: `-include
#                              OUTPUT.pch.h`, a header that includes it;
#                              never the compiled PCH (Clang cannot read
#                              GCC's .gch nor another Clang's .pch)
#
# The language is passed explicitly (`-x c++` for LANG:CXX): a `.c` source
# with LANGUAGE CXX is C++ to the compiler, and must be to annotate.
# Only what changes how the source parses is passed to annotate: -I, -D, -U,
# -std, -include, -isystem, -fopenmp, -march, -fno-exceptions, ... (the same
# list as annotate-cc's; annotate parses with Clang: code generation and
# warning flags mean nothing to it, and GCC-only ones would be errors).
# Compiler-internal include directories are left out: Clang has its own.
#
# The arguments annotate parses with (after its `--`) go to OUTPUT.args, one
# a line: what the build's compile command became (a test compares them with
# CMake's compile_commands.json).
#
# annotate's summary line for the file goes to OUTPUT.summary, which the
# target's annotate step adds up (AnnotateSummary.cmake).
#
# With COVERAGE, the file's coverage record goes there (`annotate
# --coverage`: annotated, and the functions left out and why), or, when
# annotate fails, a record of the file as failed with the reason; the
# target's coverage source is made of these (AnnotateCoverage.cmake).
#
# When annotate fails: with STRICT the build step fails with annotate's
# message; otherwise OUTPUT is the original source behind `#line 1 "SOURCE"`
# (so it compiles exactly as before and diagnostics name the original) and
# one warning line says that the file is not traced and why.

foreach(_var ANNOTATE SOURCE OUTPUT FLAGS)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "AnnotateSource.cmake: -D${_var}=... is required")
  endif()
endforeach()
if(NOT DEFINED TARGET)
  set(TARGET "")
endif()

# Reads FLAGS into lists, one per key. A ';' inside a line stays in it.
file(READ "${FLAGS}" _text)
string(REPLACE ";" "\\;" _text "${_text}")
string(REPLACE "\n" ";" _lines "${_text}")
foreach(_key LANG RULES BRACES META OPT XARG STD EXT I D O F SYS PCH)
  set(_${_key})
endforeach()
foreach(_line IN LISTS _lines)
  if(_line MATCHES "^([A-Z]+):(.*)$")
    set(_key ${CMAKE_MATCH_1})
    set(_value "${CMAKE_MATCH_2}")
    if(NOT _value STREQUAL "")
      string(REPLACE ";" "\\;" _value "${_value}")
      list(APPEND _${_key} "${_value}")
    endif()
  endif()
endforeach()

# _annotate_keep(<out-list> <args...>): the arguments that affect parsing.
function(_annotate_keep out)
  set(_kept)
  set(_args ${ARGN})
  list(LENGTH _args _n)
  set(_i 0)
  while(_i LESS _n)
    list(GET _args ${_i} _a)
    math(EXPR _j "${_i} + 1")
    if(_a MATCHES "^-(I|D|U|include|imacros|isystem|idirafter|iquote|isysroot)$"
       OR _a STREQUAL "--sysroot")
      if(_j LESS _n)
        list(GET _args ${_j} _v)
        list(APPEND _kept "${_a}" "${_v}")
      endif()
      set(_i ${_j})
    elseif(_a MATCHES "^-(I|D|U|isystem|idirafter|iquote|isysroot).+"
           OR _a MATCHES "^-std=|^--sysroot="
           OR _a MATCHES "^-(ansi|pthread|fopenmp|fopenmp=.*|fopenacc|funsigned-char|fsigned-char|fms-extensions|fgnu89-inline|m32|m64)$"
           OR _a MATCHES "^-(march=|mcpu=|mavx|msse|mfma$|f(no-)?exceptions$|f(no-)?rtti$)"
           OR _a MATCHES "^-O")
      list(APPEND _kept "${_a}")
    endif()
    math(EXPR _i "${_i} + 1")
  endwhile()
  set(${out} "${_kept}" PARENT_SCOPE)
endfunction()

set(_args)
if(_LANG STREQUAL "CXX")
  list(APPEND _args -x c++)
elseif(_LANG STREQUAL "C")
  list(APPEND _args -x c)
endif()
# The precompiled header, through a header of its own beside the copy that
# includes it: Clang's driver, given `-include cmake_pch.h`, would load a
# cmake_pch.h.pch (or a Clang .gch) beside it in place of the header, and
# another compiler's PCH (an older Clang's) cannot be read by annotate's.
# OUTPUT.args names the header itself.
set(_pch_header "")
foreach(_header IN LISTS _PCH)
  if(EXISTS "${_header}")
    get_filename_component(_outdir "${OUTPUT}" DIRECTORY)
    file(MAKE_DIRECTORY "${_outdir}")
    string(REPLACE "\\" "\\\\" _name "${_header}")
    string(REPLACE "\"" "\\\"" _name "${_name}")
    set(_stub_text "/* annotate_target: ${TARGET}'s precompiled header */\n"
      "#include \"${_name}\"\n")
    string(CONCAT _stub_text ${_stub_text})
    set(_old "")
    if(EXISTS "${OUTPUT}.pch.h")
      file(READ "${OUTPUT}.pch.h" _old)
    endif()
    if(NOT _old STREQUAL _stub_text)
      file(WRITE "${OUTPUT}.pch.h" "${_stub_text}")
    endif()
    list(APPEND _args -include "${OUTPUT}.pch.h")
    set(_pch_header "${_header}")
  endif()
endforeach()
if(_STD)
  # <LANG>_EXTENSIONS defaults to ON, as in CMake.
  set(_gnu ON)
  if(DEFINED _EXT AND NOT _EXT STREQUAL "" AND NOT _EXT)
    set(_gnu OFF)
  endif()
  if(_LANG STREQUAL "CXX" AND _gnu)
    set(_std "gnu++")
  elseif(_LANG STREQUAL "CXX")
    set(_std "c++")
  elseif(_gnu)
    set(_std "gnu")
  else()
    set(_std "c")
  endif()
  list(APPEND _args "-std=${_std}${_STD}")
endif()
foreach(_flags IN LISTS _F)
  separate_arguments(_split UNIX_COMMAND "${_flags}")
  _annotate_keep(_kept ${_split})
  list(APPEND _args ${_kept})
endforeach()
foreach(_dir IN LISTS _I)
  list(APPEND _args "-I${_dir}")
endforeach()
foreach(_def IN LISTS _D)
  list(APPEND _args "-D${_def}")
endforeach()
set(_options)
foreach(_opt IN LISTS _O)
  if(_opt MATCHES "^SHELL:(.*)$")
    separate_arguments(_split UNIX_COMMAND "${CMAKE_MATCH_1}")
    list(APPEND _options ${_split})
  else()
    list(APPEND _options "${_opt}")
  endif()
endforeach()
_annotate_keep(_kept ${_options})
list(APPEND _args ${_kept})
foreach(_dir IN LISTS _SYS)
  # An MPI wrapper's directory, say; not GCC's or Clang's builtin headers,
  # nor the standard directories Clang searches anyway.
  if(_dir MATCHES "/gcc/.*/include(-fixed)?$|/clang/[^/]+/include$"
     OR _dir MATCHES "^/usr(/local)?/include$"
     OR _dir MATCHES "^/usr/include/[^/]*-linux-[^/]*$")
    continue()
  endif()
  list(APPEND _args -idirafter "${_dir}")
endforeach()

set(_tool_args --line-directives)
if(_RULES)
  list(APPEND _tool_args --rules "${_RULES}")
endif()
if(_BRACES)
  list(APPEND _tool_args "--braces=${_BRACES}")
endif()
foreach(_kv IN LISTS _META)
  list(APPEND _tool_args --meta "${_kv}")
endforeach()
list(APPEND _tool_args ${_OPT})
foreach(_x IN LISTS _XARG)
  list(APPEND _tool_args "--extra-arg=${_x}")
endforeach()

if(COVERAGE)
  list(APPEND _tool_args --coverage "${COVERAGE}")
endif()

get_filename_component(_outdir "${OUTPUT}" DIRECTORY)
file(MAKE_DIRECTORY "${_outdir}")
set(_recorded)
foreach(_a IN LISTS _args)
  if(_a STREQUAL "${OUTPUT}.pch.h")
    set(_a "${_pch_header}")
  endif()
  list(APPEND _recorded "${_a}")
endforeach()
list(JOIN _recorded "\n" _joined)
file(WRITE "${OUTPUT}.args" "${_joined}\n")
set(_tmp "${OUTPUT}.tmp")
execute_process(
  COMMAND "${ANNOTATE}" "${SOURCE}" ${_tool_args} -- ${_args}
  OUTPUT_FILE "${_tmp}"
  ERROR_VARIABLE _err
  RESULT_VARIABLE _rc)

set(_who "annotate_target(${TARGET})")

# `#line 1 "SOURCE"` and a newline, the name escaped for a string literal.
function(_annotate_line_one out)
  string(REPLACE "\\" "\\\\" _name "${SOURCE}")
  string(REPLACE "\"" "\\\"" _name "${_name}")
  set(${out} "#line 1 \"${_name}\"\n" PARENT_SCOPE)
endfunction()
# annotate's diagnostics, without its one-line summary, which goes to
# OUTPUT.summary for the target's one line (AnnotateSummary.cmake).
string(REGEX MATCH "annotate: [0-9]+ files?,[^\n]*" _summary "${_err}")
string(REGEX REPLACE "(^|\n)annotate: [0-9]+ files?,[^\n]*" "" _diag "${_err}")
string(STRIP "${_diag}" _diag)
if(NOT _summary OR NOT _rc EQUAL 0)
  set(_summary "annotate: 1 file, 0 changed, 1 failed; 0 functions annotated, 0 skipped")
endif()

if(_rc EQUAL 0 AND EXISTS "${_tmp}")
  file(SIZE "${_tmp}" _size)
  if(_size GREATER 0)
    # A file annotate leaves unchanged (filtered out, nothing selected) comes
    # back without #line: add one, so that diagnostics still name the
    # original.
    file(READ "${_tmp}" _content)
    string(FIND "${_content}" "#line " _at)
    if(NOT _at EQUAL 0)
      _annotate_line_one(_line_one)
      file(WRITE "${_tmp}" "${_line_one}${_content}")
    endif()
    file(RENAME "${_tmp}" "${OUTPUT}")
    file(WRITE "${OUTPUT}.summary" "${_summary}\n")
    if(COVERAGE AND NOT EXISTS "${COVERAGE}")
      file(WRITE "${COVERAGE}" "") # an annotate without --coverage records
    endif()
    if(_diag)
      message("${_diag}")
    endif()
    return()
  endif()
endif()
file(REMOVE "${_tmp}")

# annotate's own line about the file comes last, after Clang's: "<file>:
# error: the file does not compile; left unchanged (first error at a.c:5:3:
# ...; try --extra-arg=...)" -> "first error at ...; try ...".
set(_reason "")
string(ASCII 31 _sep) # ';' would split the lines of a list
string(REPLACE ";" "${_sep}" _lines "${_err}")
string(REGEX MATCHALL "[^\n]*error: [^\n]*" _lines "${_lines}")
if(_lines)
  list(GET _lines -1 _reason)
  string(REPLACE "${_sep}" ";" _reason "${_reason}")
endif()
string(REGEX REPLACE "^([^\n]*: )?error: " "" _reason "${_reason}")
string(REGEX REPLACE "^the file does not compile; left unchanged \\((.*)\\)$" "\\1"
  _reason "${_reason}")
if(NOT _reason)
  if(_rc MATCHES "^[0-9]+$")
    set(_reason "annotate exited with ${_rc}")
  else()
    set(_reason "${_rc}") # "No such file or directory", ...
  endif()
endif()

# The target's summary lists the files not annotated, each with its reason.
file(RELATIVE_PATH _shown "${CMAKE_SOURCE_DIR}" "${SOURCE}")
if(_shown MATCHES "^\\.\\./")
  set(_shown "${SOURCE}")
endif()
file(WRITE "${OUTPUT}.summary" "${_summary}\nFAILED:${_shown}: ${_reason}\n")
if(COVERAGE)
  # The record of a file not annotated, as annotate-cc writes it.
  set(_json_file "${SOURCE}")
  set(_json_reason "not annotated (${_reason})")
  foreach(_var _json_file _json_reason)
    string(REPLACE "\\" "\\\\" ${_var} "${${_var}}")
    string(REPLACE "\"" "\\\"" ${_var} "${${_var}}")
    string(REPLACE "\t" "\\t" ${_var} "${${_var}}")
    string(REGEX REPLACE "[\r\n]+" " " ${_var} "${${_var}}")
  endforeach()
  file(WRITE "${COVERAGE}" "{\"coverage\":1,\"tool\":\"annotate_target\",\"files\":[{\"file\":\"${_json_file}\",\"status\":\"failed\",\"reason\":\"${_json_reason}\",\"annotated\":0,\"unannotated\":[]}]}\n")
endif()

if(STRICT)
  # Plain lines (message(FATAL_ERROR) would re-wrap annotate's output), then
  # a failing exit status.
  message("${_who}: error: ${SOURCE}: not annotated (${_reason}); "
    "STRICT stops the build (fix the file, or drop STRICT to build it untraced)\n"
    "${_err}")
  if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.29)
    cmake_language(EXIT 1)
  endif()
  message(FATAL_ERROR "${_who}: STRICT")
endif()

# Fall back to the original source, untraced.
file(READ "${SOURCE}" _content)
_annotate_line_one(_line_one)
file(WRITE "${_tmp}" "${_line_one}${_content}")
file(RENAME "${_tmp}" "${OUTPUT}")
message("${_who}: warning: ${SOURCE}: not annotated (${_reason}); compiling the original, untraced")
