# AnnotateTarget.cmake - build a CMake target from annotated copies of its
# sources, traced with the bundled DFTracer-compatible runtime.
#
#   find_package(annotate REQUIRED)        # or include() this file from
#                                          # annotate's own source tree
#   add_executable(app main.c io.c)
#   annotate_target(app META app=ior)
#
#   annotate_target(<target>
#                   [RULES <name>|<file.json>]   default: dftracer
#                   [META <key=value>...]        metadata recorded by main
#                   [BRACES needed|all|none]     default: needed
#                   [RUNTIME shared|static|none] default: shared
#                   [OPTIONS <annotate option>...] e.g. --guard 0
#                                                --exclude-function "h5_*"
#                   [EXTRA_ARGS <flag>...]       annotate --extra-arg: for
#                                                Clang's parse only, e.g.
#                                                -Wno-c++11-narrowing
#                   [STRICT]                     also: -DANNOTATE_STRICT=ON
#                   [NO_COVERAGE])               also: -DANNOTATE_COVERAGE=OFF
#
# annotate runs in the top source directory, so --include-file and
# --exclude-file patterns in OPTIONS are relative to it.
#
# For every C and C++ source of <target>, a custom command writes
#   <target binary dir>/annotate/<target>/<path of the source>
# with `annotate --line-directives`, and the target compiles that copy
# instead of the original:
#  - the command re-runs only when the source, the rule set, the annotate
#    binary, or the flags annotate gets (include directories, definitions,
#    C/C++ standard) change; editing a header recompiles the copies that
#    include it without annotating them again;
#  - annotate parses the source in the language CMake compiles it in (its
#    LANGUAGE property, else CMAKE_<LANG>_SOURCE_FILE_EXTENSIONS), given as
#    `-x c` or `-x c++`, with the target's include directories,
#    definitions, standard and the compiler's own include directories (an
#    MPI wrapper's, say), so it sees what the compiler sees;
#  - with precompiled headers (target_precompile_headers), annotate parses
#    with the header itself, `-include` the cmake_pch.h[xx] CMake writes,
#    and the copy compiles with the PCH as the original would;
#  - the copy is compiled with `-iquote <directory of the original>` ahead
#    of the target's flags, so `#include "x.h"` finds the same file as
#    before; `#line` directives make diagnostics, __FILE__ and debug line
#    tables name the original file and line;
#  - the target links the tracing runtime (dftracer::dftracer_core, or
#    dftracer_core_static with RUNTIME static), which also brings
#    <dftracer/dftracer.h>; RUNTIME none links and includes nothing (use
#    upstream DFTracer's package yourself).
#
# A source annotate cannot handle (code only GCC accepts, a file Clang
# cannot parse, a language the rule set does not cover) is compiled as it
# is, behind `#line 1`, and the build prints one line
#   annotate_target(app): warning: /src/x.c: not annotated (<why>); compiling the original, untraced
# A traced build should not stop on one file the tool cannot handle when the
# compiler can (SPEC 2.7: never break the build); STRICT turns the warning
# into a build error, for CI jobs that must trace every file; so does
# -DANNOTATE_STRICT=ON, for every annotate_target() of the build. The
# target's summary line is followed by one line per file not annotated:
#   annotate_target(app):   not annotated: src/x.c: first error at ...
#
# The sources are read when the directory that called annotate_target() is
# done (cmake_language(DEFER)), so target_sources() calls that come after it
# count. Functions defined in headers are not annotated (a header is shared
# by sources and targets; annotate them in place with `annotate -i` if they
# must be traced). Sources given by generator expressions are compiled as
# they are. A custom target <target>_annotate writes all the copies
# (`cmake --build . --target app_annotate` to inspect them) and prints one
# line for the target, the sum of annotate's summaries of its files:
#   annotate_target(app): 3 files, 3 changed, 0 failed; 41 functions annotated, 9 skipped (9 guard)
#
# The runtime target puts itself first on the link line (its link options,
# runtime/CMakeLists.txt and the package), so the program's NEEDED list
# names libdftracer_core before libhdf5 and libmpi whatever order the
# project links them in: their calls reach the wrappers
# (docs/integration.md, Link order).
#
# UNITY_BUILD (or CMAKE_UNITY_BUILD) is turned off for an annotated target,
# with one line at configure time: each copy compiles alone (a unity file
# would compile it away from its original's directory). annotate writes the
# arguments it parsed each source with beside its copy, <copy>.args, one a
# line (docs/integration.md, "Precompiled headers and unity builds").
#
# Coverage (docs/integration.md, "Coverage"): each source's record goes
# beside its copy (`annotate --coverage`: <copy>.coverage.json; for a file
# annotate fails on, the failure and why), and the sources left out
# (given by generator expressions) are recorded too. An executable, shared
# library or module gets one more source, generated from those records at
# build time, <target binary dir>/annotate/<target>/<target>_dftracer_coverage.c:
# the coverage as JSON text and a constructor that registers it with the
# runtime (weakly: the program still runs without it), which writes it as
# the `coverage` record of each trace file. Static and object libraries
# have their records, and their sources are counted by the executables and
# shared libraries that link them directly through annotate_target().
# NO_COVERAGE, or -DANNOTATE_COVERAGE=OFF for every target: no source is
# added (the records are still written).
#
# Needs CMake 3.20 to run, and a single-configuration generator (Ninja,
# Unix Makefiles); the project may declare any cmake_minimum_required()
# from 2.8.12 up: the functions here run under the policies of 3.20 (set
# below, recorded by each function when it is defined), whatever the
# project's. See docs/integration.md.

include_guard(GLOBAL)

if(CMAKE_VERSION VERSION_LESS 3.20)
  message(FATAL_ERROR "annotate_target needs CMake 3.20 or newer")
endif()
# IN_LIST (CMP0057), quoted if() arguments (CMP0054), ... in a project
# whose cmake_minimum_required() is older: POP at the end of this file.
cmake_policy(PUSH)
cmake_policy(VERSION 3.20)

# Where the pieces are. The package config (annotateConfig.cmake) sets
# ANNOTATE_RULES_DIR before including this file and defines
# annotate::annotate and the dftracer:: targets; inside annotate's own
# build the targets `annotate` and `dftracer_core` are used directly.
if(NOT ANNOTATE_RULES_DIR)
  get_filename_component(ANNOTATE_RULES_DIR "${CMAKE_CURRENT_LIST_DIR}/../rules" ABSOLUTE)
endif()
set_property(GLOBAL PROPERTY ANNOTATE_RULES_DIR "${ANNOTATE_RULES_DIR}")
set_property(GLOBAL PROPERTY ANNOTATE_STEP_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/AnnotateSource.cmake")
set_property(GLOBAL PROPERTY ANNOTATE_SUMMARY_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/AnnotateSummary.cmake")
set_property(GLOBAL PROPERTY ANNOTATE_COVERAGE_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/AnnotateCoverage.cmake")

# _annotate_relative(<out> <path> <target>): where the copy of <path> goes,
# relative to the copies' directory.
function(_annotate_relative out path target)
  get_target_property(_src ${target} SOURCE_DIR)
  get_target_property(_bin ${target} BINARY_DIR)
  foreach(_pair "${_src}|" "${CMAKE_SOURCE_DIR}|_src/" "${_bin}|_bin/"
                "${CMAKE_BINARY_DIR}|_bin_top/")
    string(REPLACE "|" ";" _pair "${_pair}")
    list(GET _pair 0 _base)
    list(LENGTH _pair _len)
    set(_prefix "")
    if(_len GREATER 1)
      list(GET _pair 1 _prefix)
    endif()
    file(RELATIVE_PATH _rel "${_base}" "${path}")
    if(NOT _rel MATCHES "^\\.\\./" AND NOT IS_ABSOLUTE "${_rel}")
      set(${out} "${_prefix}${_rel}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  string(REGEX REPLACE "^/+" "" _rel "${path}")
  string(REPLACE ":" "_" _rel "${_rel}")
  set(${out} "_abs/${_rel}" PARENT_SCOPE)
endfunction()

# _annotate_language(<out> <abs path> <target>): C, CXX or empty: the
# language CMake compiles the source in, its LANGUAGE property (a `.c`
# compiled as C++), else the enabled language whose
# CMAKE_<LANG>_SOURCE_FILE_EXTENSIONS has its extension, as CMake decides.
function(_annotate_language out path target)
  get_source_file_property(_lang "${path}" TARGET_DIRECTORY ${target} LANGUAGE)
  get_source_file_property(_header "${path}" TARGET_DIRECTORY ${target} HEADER_FILE_ONLY)
  if(_header)
    set(_lang "")
  elseif(NOT _lang)
    set(_lang "")
    get_filename_component(_ext "${path}" LAST_EXT)
    string(REGEX REPLACE "^\\." "" _ext "${_ext}")
    get_property(_enabled GLOBAL PROPERTY ENABLED_LANGUAGES)
    foreach(_l C CXX)
      # m, mm and M are Objective-C, which these lists also name; C++
      # module units (ixx, cppm, ...) are not annotated.
      if(_l IN_LIST _enabled AND _ext IN_LIST CMAKE_${_l}_SOURCE_FILE_EXTENSIONS
         AND NOT _ext MATCHES "^(m|mm|M|mpp|ixx|cppm|ccm|cxxm|c\\+\\+m)$")
        set(_lang ${_l})
        break()
      endif()
    endforeach()
  endif()
  if(NOT _lang MATCHES "^(C|CXX)$")
    set(_lang "")
  endif()
  set(${out} "${_lang}" PARENT_SCOPE)
endfunction()

function(annotate_target target)
  cmake_parse_arguments(PARSE_ARGV 1 _a "STRICT;NO_COVERAGE" "RULES;BRACES;RUNTIME"
    "META;OPTIONS;EXTRA_ARGS")
  set(_who "annotate_target(${target})")
  if(_a_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${_who}: unexpected arguments: ${_a_UNPARSED_ARGUMENTS}\n"
      "usage: annotate_target(<target> [RULES name|file] [META key=value...] "
      "[BRACES needed|all|none] [RUNTIME shared|static|none] "
      "[OPTIONS <annotate option>...] [EXTRA_ARGS <flag>...] [STRICT] [NO_COVERAGE])")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "${_who}: no target named '${target}'")
  endif()
  if("--strip" IN_LIST _a_OPTIONS)
    # The target's sources are never annotated (annotated copies are
    # compiled instead): there is nothing to strip.
    message(FATAL_ERROR "${_who}: OPTIONS --strip: annotate_target never "
      "changes the sources, it compiles annotated copies: remove the "
      "annotate_target() call for an untraced build, or run "
      "'annotate --strip -i' on sources annotated in place")
  endif()
  get_target_property(_type ${target} TYPE)
  get_target_property(_imported ${target} IMPORTED)
  get_target_property(_aliased ${target} ALIASED_TARGET)
  if(_imported OR _aliased OR NOT _type MATCHES
     "^(EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY)$")
    message(FATAL_ERROR "${_who}: '${target}' must be an executable or a library "
      "built here (not ${_type}, imported or alias)")
  endif()
  get_target_property(_done ${target} ANNOTATE_TARGET)
  if(_done)
    message(FATAL_ERROR "${_who}: the target is already annotated")
  endif()
  get_property(_multi GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  if(_multi)
    message(FATAL_ERROR "${_who}: multi-configuration generators "
      "(${CMAKE_GENERATOR}) are not supported; use Ninja or Unix Makefiles")
  endif()

  # The annotate binary: installed or build-tree package, or this build.
  if(NOT TARGET annotate::annotate)
    if(TARGET annotate)
      add_executable(annotate::annotate ALIAS annotate)
    else()
      message(FATAL_ERROR "${_who}: the annotate tool is unknown. Use "
        "find_package(annotate) (set annotate_DIR or CMAKE_PREFIX_PATH to its "
        "installation or build directory).")
    endif()
  endif()

  # The rule set: a name under the rules directory, or a JSON file.
  if(NOT _a_RULES)
    set(_a_RULES dftracer)
  endif()
  if(_a_RULES MATCHES "/|\\.json$")
    get_filename_component(_rules "${_a_RULES}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  else()
    get_property(_dir GLOBAL PROPERTY ANNOTATE_RULES_DIR)
    set(_rules "${_dir}/${_a_RULES}.json")
  endif()
  if(NOT EXISTS "${_rules}")
    message(FATAL_ERROR "${_who}: rule set '${_a_RULES}' not found (no ${_rules})")
  endif()
  if(_a_BRACES AND NOT _a_BRACES MATCHES "^(needed|all|none)$")
    message(FATAL_ERROR "${_who}: BRACES must be needed, all or none, not '${_a_BRACES}'")
  endif()
  foreach(_kv IN LISTS _a_META)
    if(NOT _kv MATCHES "^[^=]+=")
      message(FATAL_ERROR "${_who}: META expects key=value, got '${_kv}'")
    endif()
  endforeach()

  # The runtime: linked now, so that the target's usage requirements (and
  # those of libraries linking it) are complete.
  if(NOT _a_RUNTIME)
    set(_a_RUNTIME shared)
  endif()
  if(_a_RUNTIME STREQUAL "shared")
    set(_runtime dftracer::dftracer_core)
  elseif(_a_RUNTIME STREQUAL "static")
    set(_runtime dftracer::dftracer_core_static)
  elseif(_a_RUNTIME STREQUAL "none")
    set(_runtime "")
  else()
    message(FATAL_ERROR "${_who}: RUNTIME must be shared, static or none, not '${_a_RUNTIME}'")
  endif()
  if(_runtime)
    if(NOT TARGET ${_runtime})
      message(FATAL_ERROR "${_who}: the runtime target ${_runtime} is unknown; "
        "use find_package(annotate), which finds it")
    endif()
    # The property, not target_link_libraries(): that works whichever
    # signature (plain or PRIVATE/PUBLIC) the project uses for the target.
    set_property(TARGET ${target} APPEND PROPERTY LINK_LIBRARIES ${_runtime})
    if(_type MATCHES "^(STATIC_LIBRARY|OBJECT_LIBRARY)$")
      set_property(TARGET ${target} APPEND PROPERTY
        INTERFACE_LINK_LIBRARIES "$<LINK_ONLY:${_runtime}>")
    endif()
  endif()

  if(ANNOTATE_STRICT)
    set(_a_STRICT ON) # -DANNOTATE_STRICT=ON: every target
  endif()
  set(_coverage ON)
  if(_a_NO_COVERAGE OR (DEFINED ANNOTATE_COVERAGE AND NOT ANNOTATE_COVERAGE))
    set(_coverage OFF)
  endif()
  set_target_properties(${target} PROPERTIES
    ANNOTATE_TARGET ON
    ANNOTATE_COVERAGE "${_coverage}"
    ANNOTATE_EXTRA_ARGS "${_a_EXTRA_ARGS}"
    ANNOTATE_RULES_FILE "${_rules}"
    ANNOTATE_BRACES "${_a_BRACES}"
    ANNOTATE_META "${_a_META}"
    ANNOTATE_OPTIONS "${_a_OPTIONS}"
    ANNOTATE_STRICT "${_a_STRICT}")
  # Arguments of a deferred call are evaluated when it runs: pass the name
  # as a literal.
  cmake_language(EVAL CODE
    "cmake_language(DEFER CALL _annotate_target_sources [==[${target}]==])")
endfunction()

# The deferred part: swap each C/C++ source for its annotated copy.
function(_annotate_target_sources target)
  set(_who "annotate_target(${target})")
  get_target_property(_sources ${target} SOURCES)
  get_target_property(_src_dir ${target} SOURCE_DIR)
  get_target_property(_bin_dir ${target} BINARY_DIR)
  get_target_property(_rules ${target} ANNOTATE_RULES_FILE)
  get_target_property(_braces ${target} ANNOTATE_BRACES)
  get_target_property(_meta ${target} ANNOTATE_META)
  get_target_property(_extra ${target} ANNOTATE_OPTIONS)
  get_target_property(_strict ${target} ANNOTATE_STRICT)
  get_target_property(_xargs ${target} ANNOTATE_EXTRA_ARGS)
  get_target_property(_coverage ${target} ANNOTATE_COVERAGE)
  get_property(_step GLOBAL PROPERTY ANNOTATE_STEP_SCRIPT)
  set(_root "${_bin_dir}/annotate/${target}")
  get_target_property(_annotate_imported annotate::annotate IMPORTED)
  set(_annotate_deps "$<TARGET_FILE:annotate::annotate>")
  if(NOT _annotate_imported)
    list(APPEND _annotate_deps annotate::annotate)
  endif()
  if(CMAKE_BUILD_TYPE)
    string(TOUPPER "${CMAKE_BUILD_TYPE}" _config)
  endif()

  # A unity build would compile the copies in CMake's unity_N_<lang> files,
  # away from their originals' directories; annotate_target compiles each
  # copy alone instead, as the build would without UNITY_BUILD (and said
  # once: the build's compile commands change). docs/integration.md,
  # "Precompiled headers and unity builds".
  get_target_property(_unity ${target} UNITY_BUILD)
  if(_unity)
    set_property(TARGET ${target} PROPERTY UNITY_BUILD OFF)
    message(NOTICE "${_who}: UNITY_BUILD turned off for this target: its "
      "sources are annotated and compiled one by one (each annotated copy "
      "must find its original's quoted includes)")
  endif()
  # Precompiled headers: the copy compiles with the target's PCH as the
  # original would; annotate parses with the header CMake generates for it
  # (-include CMakeFiles/<t>.dir/cmake_pch.h[xx]), never with the compiled
  # PCH, which only that compiler can read. PRECOMPILE_HEADERS_REUSE_FROM
  # names the target whose header it is.
  set(_pch_dir "")
  get_target_property(_pch_from ${target} PRECOMPILE_HEADERS_REUSE_FROM)
  get_target_property(_pch ${target} PRECOMPILE_HEADERS)
  get_target_property(_pch_off ${target} DISABLE_PRECOMPILE_HEADERS)
  if(_pch_from AND TARGET "${_pch_from}")
    get_target_property(_pch_bin ${_pch_from} BINARY_DIR)
    set(_pch_dir "${_pch_bin}/CMakeFiles/${_pch_from}.dir")
  elseif(_pch)
    set(_pch_dir "${_bin_dir}/CMakeFiles/${target}.dir")
  endif()
  if(_pch_off)
    set(_pch_dir "")
  endif()

  set(_new_sources)
  set(_copies)
  set(_records) # the coverage records of the sources
  set(_left_out "") # ... and annotate_target's, of those it leaves out
  set(_object_libs) # $<TARGET_OBJECTS:lib>: lib's records count here
  set(_count 0)
  foreach(_source IN LISTS _sources)
    set(_lib "")
    if(_source MATCHES "^\\$<TARGET_OBJECTS:([^>]+)>$")
      set(_lib "${CMAKE_MATCH_1}")
    endif()
    if(_lib AND TARGET "${_lib}")
      list(APPEND _new_sources "${_source}")
      list(APPEND _object_libs "${_lib}")
      continue()
    elseif(_source MATCHES "\\$<")
      list(APPEND _new_sources "${_source}")
      # Compiled as it is, unseen: said in the coverage record.
      string(REPLACE "\\" "\\\\" _json "${_source}")
      string(REPLACE "\"" "\\\"" _json "${_json}")
      string(APPEND _left_out "{\"coverage\":1,\"tool\":\"annotate_target\",\"files\":[{\"file\":\"${_json}\",\"status\":\"excluded\",\"reason\":\"given by a generator expression, compiled as it is\",\"annotated\":0,\"unannotated\":[]}]}\n")
      continue()
    endif()
    get_filename_component(_path "${_source}" ABSOLUTE BASE_DIR "${_src_dir}")
    if(NOT EXISTS "${_path}")
      get_filename_component(_in_bin "${_source}" ABSOLUTE BASE_DIR "${_bin_dir}")
      get_source_file_property(_generated "${_in_bin}" TARGET_DIRECTORY ${target} GENERATED)
      if(_generated OR EXISTS "${_in_bin}")
        set(_path "${_in_bin}")
      endif()
    endif()
    _annotate_language(_lang "${_path}" ${target})
    if(NOT _lang)
      list(APPEND _new_sources "${_source}")
      continue()
    endif()

    _annotate_relative(_rel "${_path}" ${target})
    set(_copy "${_root}/${_rel}")
    set(_flags "${_copy}.flags")
    get_filename_component(_orig_dir "${_path}" DIRECTORY)

    # What annotate needs to parse the source as the compiler will: the
    # target's and the source's flags, evaluated for this target.
    set(_content "LANG:${_lang}\nRULES:${_rules}\n")
    if(_braces)
      string(APPEND _content "BRACES:${_braces}\n")
    endif()
    foreach(_kv IN LISTS _meta)
      string(APPEND _content "META:${_kv}\n")
    endforeach()
    foreach(_opt IN LISTS _extra)
      string(APPEND _content "OPT:${_opt}\n")
    endforeach()
    foreach(_opt IN LISTS _xargs)
      string(APPEND _content "XARG:${_opt}\n")
    endforeach()
    string(APPEND _content
      "STD:$<TARGET_PROPERTY:${target},${_lang}_STANDARD>\n"
      "EXT:$<TARGET_PROPERTY:${target},${_lang}_EXTENSIONS>\n"
      "I:$<JOIN:$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>,\nI:>\n"
      "D:$<JOIN:$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>,\nD:>\n"
      "O:$<JOIN:$<TARGET_PROPERTY:${target},COMPILE_OPTIONS>,\nO:>\n"
      "F:${CMAKE_${_lang}_FLAGS}\n")
    if(_config)
      string(APPEND _content "F:${CMAKE_${_lang}_FLAGS_${_config}}\n")
    endif()
    get_target_property(_tflags ${target} COMPILE_FLAGS)
    if(_tflags)
      string(APPEND _content "F:${_tflags}\n")
    endif()
    # The copy compiles with the original's own properties, plus quoted
    # includes from the original's directory ahead of the target's.
    set(_quote "-iquote${_orig_dir}")
    if(NOT CMAKE_${_lang}_COMPILER_ID MATCHES "GNU|Clang|Intel|NVHPC|PGI|XL|Cray|Fujitsu")
      set(_quote "-I${_orig_dir}")
    endif()
    set(_options "${_quote}")
    foreach(_prop INCLUDE_DIRECTORIES:I COMPILE_DEFINITIONS:D COMPILE_OPTIONS:O COMPILE_FLAGS:F)
      string(REPLACE ":" ";" _prop "${_prop}")
      list(GET _prop 0 _name)
      list(GET _prop 1 _key)
      get_source_file_property(_value "${_path}" TARGET_DIRECTORY ${target} ${_name})
      if(NOT _value)
        continue()
      endif()
      if(_key STREQUAL "F")
        string(APPEND _content "F:${_value}\n")
      else()
        list(JOIN _value "\n${_key}:" _joined)
        string(APPEND _content "${_key}:${_joined}\n")
      endif()
      if(_name STREQUAL "COMPILE_OPTIONS")
        list(APPEND _options ${_value})
      else()
        set_source_files_properties("${_copy}" TARGET_DIRECTORY ${target}
          PROPERTIES ${_name} "${_value}")
      endif()
    endforeach()
    foreach(_dir IN LISTS CMAKE_${_lang}_IMPLICIT_INCLUDE_DIRECTORIES)
      string(APPEND _content "SYS:${_dir}\n")
    endforeach()
    get_source_file_property(_skip_pch "${_path}" TARGET_DIRECTORY ${target}
      SKIP_PRECOMPILE_HEADERS)
    if(_skip_pch)
      set_source_files_properties("${_copy}" TARGET_DIRECTORY ${target}
        PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
    elseif(_pch_dir)
      # Passed only if CMake wrote it (none for a language whose header
      # list is empty).
      if(_lang STREQUAL "CXX")
        string(APPEND _content "PCH:${_pch_dir}/cmake_pch.hxx\n")
      else()
        string(APPEND _content "PCH:${_pch_dir}/cmake_pch.h\n")
      endif()
    endif()
    file(GENERATE OUTPUT "${_flags}" CONTENT "${_content}"
      CONDITION "$<COMPILE_LANGUAGE:${_lang}>" TARGET ${target})

    file(RELATIVE_PATH _shown "${CMAKE_SOURCE_DIR}" "${_path}")
    if(_shown MATCHES "^\\.\\./")
      set(_shown "${_path}")
    endif()
    add_custom_command(OUTPUT "${_copy}" "${_copy}.coverage.json"
      COMMAND "${CMAKE_COMMAND}"
        "-DANNOTATE=$<TARGET_FILE:annotate::annotate>"
        "-DSOURCE=${_path}" "-DOUTPUT=${_copy}" "-DFLAGS=${_flags}"
        "-DTARGET=${target}" "-DSTRICT=${_strict}"
        "-DCOVERAGE=${_copy}.coverage.json"
        -P "${_step}"
      DEPENDS "${_path}" "${_flags}" "${_rules}" "${_step}" ${_annotate_deps}
      WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
      COMMENT "Annotating ${_lang} source ${_shown}"
      VERBATIM)

    set_source_files_properties("${_copy}" TARGET_DIRECTORY ${target} PROPERTIES
      GENERATED TRUE LANGUAGE ${_lang} COMPILE_OPTIONS "${_options}")
    list(APPEND _new_sources "${_copy}")
    list(APPEND _copies "${_copy}")
    list(APPEND _records "${_copy}.coverage.json")
    math(EXPR _count "${_count} + 1")
  endforeach()

  if(_count EQUAL 0)
    message(WARNING "${_who}: the target has no C or C++ source to annotate")
    return()
  endif()
  set_property(TARGET ${target} PROPERTY SOURCES ${_new_sources})
  # One target that writes every copy; the target itself builds after it.
  if(TARGET ${target}_annotate)
    message(FATAL_ERROR "${_who}: a target named ${target}_annotate already exists")
  endif()
  # ... and says what it did, in one line for the target (the sum of each
  # copy's annotate summary: files, functions annotated and skipped).
  set(_summaries)
  foreach(_copy IN LISTS _copies)
    list(APPEND _summaries "${_copy}.summary")
  endforeach()
  get_property(_summary_script GLOBAL PROPERTY ANNOTATE_SUMMARY_SCRIPT)
  string(REPLACE ";" "|" _summaries "${_summaries}")
  # The coverage source is written by the same target: its custom command
  # is in this directory, which need not be the target's.
  _annotate_coverage_source(${target} "${_root}" "${_records}" "${_left_out}"
    "${_coverage}" "${_object_libs}")
  add_custom_target(${target}_annotate
    COMMAND "${CMAKE_COMMAND}" "-DTARGET=${target}" "-DSUMMARIES=${_summaries}"
      -P "${_summary_script}"
    DEPENDS ${_copies} ${_coverage_source}
    VERBATIM)
  add_dependencies(${target} ${target}_annotate)
  if(_coverage_libs AND NOT CMAKE_GENERATOR MATCHES "Ninja")
    # Their records are files of other targets, which make sees only once
    # they exist (Ninja knows every file's rule).
    add_dependencies(${target}_annotate ${_coverage_libs})
  endif()
endfunction()

# The target's coverage: its records listed in ANNOTATE_COVERAGE_RECORDS
# (for the programs that link it), and for a program or shared library the
# generated source that carries them (AnnotateCoverage.cmake), added to
# the target; in the caller, _coverage_source is that source ("" for none)
# and _coverage_libs the libraries whose records it reads.
# _annotate_static_links(<out> <target>): the static and object libraries
# of this project that <target> links, directly or through others of them,
# each once, nearest first: <target>'s LINK_LIBRARIES, and for each static
# library found its LINK_LIBRARIES and INTERFACE_LINK_LIBRARIES (where a
# PRIVATE link of a static library goes, as $<LINK_ONLY:lib>). Imported and
# shared libraries end the walk.
function(_annotate_static_links out target)
  set(_found)
  set(_queue ${target})
  while(_queue)
    list(POP_FRONT _queue _t)
    set(_links)
    set(_props LINK_LIBRARIES)
    if(NOT _t STREQUAL target)
      list(APPEND _props INTERFACE_LINK_LIBRARIES)
    endif()
    foreach(_prop IN LISTS _props)
      get_target_property(_l ${_t} ${_prop})
      if(_l)
        list(APPEND _links ${_l})
      endif()
    endforeach()
    foreach(_lib IN LISTS _links)
      if(_lib MATCHES "^\\$<LINK_ONLY:([A-Za-z0-9_.+:-]+)>$")
        set(_lib "${CMAKE_MATCH_1}")
      endif()
      if(NOT _lib MATCHES "^[A-Za-z0-9_.+:-]+$" OR NOT TARGET ${_lib} OR
         _lib IN_LIST _found OR _lib STREQUAL target)
        continue()
      endif()
      get_target_property(_aliased ${_lib} ALIASED_TARGET)
      if(_aliased)
        set(_lib ${_aliased})
        if(_lib IN_LIST _found)
          continue()
        endif()
      endif()
      get_target_property(_lib_type ${_lib} TYPE)
      get_target_property(_lib_imported ${_lib} IMPORTED)
      if(_lib_type MATCHES "^(STATIC_LIBRARY|OBJECT_LIBRARY)$" AND NOT _lib_imported)
        list(APPEND _found ${_lib})
        list(APPEND _queue ${_lib})
      endif()
    endforeach()
  endwhile()
  set(${out} "${_found}" PARENT_SCOPE)
endfunction()

function(_annotate_coverage_source target root records left_out coverage object_libs)
  set(_coverage_source "" PARENT_SCOPE)
  set(_coverage_libs "" PARENT_SCOPE)
  get_target_property(_type ${target} TYPE)
  if(left_out)
    set(_left_file "${root}/_left_out.coverage.json")
    # Rewritten only when it changes: it is a dependency of the source.
    set(_old "")
    if(EXISTS "${_left_file}")
      file(READ "${_left_file}" _old)
    endif()
    if(NOT _old STREQUAL left_out)
      file(WRITE "${_left_file}" "${left_out}")
    endif()
    list(APPEND records "${_left_file}")
  endif()
  set_property(TARGET ${target} PROPERTY ANNOTATE_COVERAGE_RECORDS "${records}")
  if(NOT coverage OR NOT _type MATCHES "^(EXECUTABLE|SHARED_LIBRARY|MODULE_LIBRARY)$")
    return()
  endif()
  # The records of the static and object libraries whose code it holds,
  # that are annotated too: those whose objects it lists, and those it
  # links, directly or through other static libraries (a static library's
  # own links come along at the final link; a shared library carries its
  # own record). Read when the build files are generated, so the order of
  # the annotate_target() calls does not matter.
  set(_deps)
  set(_libs)
  foreach(_lib IN LISTS object_libs)
    list(APPEND _deps "$<TARGET_PROPERTY:${_lib},ANNOTATE_COVERAGE_RECORDS>")
    list(APPEND _libs ${_lib})
  endforeach()
  _annotate_static_links(_static ${target})
  foreach(_lib IN LISTS _static)
    if(NOT _lib IN_LIST _libs)
      list(APPEND _deps "$<TARGET_PROPERTY:${_lib},ANNOTATE_COVERAGE_RECORDS>")
      list(APPEND _libs ${_lib})
    endif()
  endforeach()
  get_property(_enabled GLOBAL PROPERTY ENABLED_LANGUAGES)
  if("C" IN_LIST _enabled)
    set(_source "${root}/${target}_dftracer_coverage.c")
    set(_lang C)
  else()
    set(_source "${root}/${target}_dftracer_coverage.cpp")
    set(_lang CXX)
  endif()
  get_property(_script GLOBAL PROPERTY ANNOTATE_COVERAGE_SCRIPT)
  string(REPLACE ";" "|" _list "${records}")
  foreach(_dep IN LISTS _deps)
    string(APPEND _list "|$<JOIN:${_dep},|>")
  endforeach()
  add_custom_command(OUTPUT "${_source}"
    COMMAND "${CMAKE_COMMAND}" "-DTARGET=${target}" "-DOUTPUT=${_source}"
      "-DRECORDS=${_list}" -P "${_script}"
    DEPENDS ${records} ${_deps} "${_script}"
    COMMENT "Writing the coverage record of ${target}"
    VERBATIM)
  set(_options "")
  if(CMAKE_${_lang}_COMPILER_ID MATCHES "GNU|Clang|Intel|NVHPC|PGI|XL|Cray|Fujitsu")
    set(_options -w) # the project's warning flags are not for this file
  endif()
  set_source_files_properties("${_source}" TARGET_DIRECTORY ${target} PROPERTIES
    GENERATED TRUE LANGUAGE ${_lang} COMPILE_OPTIONS "${_options}"
    SKIP_UNITY_BUILD_INCLUSION ON SKIP_PRECOMPILE_HEADERS ON)
  target_sources(${target} PRIVATE "${_source}")
  set(_coverage_source "${_source}" PARENT_SCOPE)
  set(_coverage_libs "${_libs}" PARENT_SCOPE)
endfunction()

cmake_policy(POP)
