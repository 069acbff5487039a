# tree.strip: `annotate --strip` over the whole compile database (issue 15).
# The tree is annotated in place through -p, then:
#   --strip --check and --diff   name every annotated file, write nothing
#   --strip -o DIR               writes every file as it was before, under DIR
#   --strip -i -j 2 --report     gives back every file of the project byte
#                                for byte (the shared header included, files
#                                outside --root untouched), one "removed"
#                                line per file, counts in the report
#   --strip --check              then finds nothing (idempotent)
#   annotate -i                  then gives the first annotation again
# and, annotating once more and editing the result as a user would (a
# statement in a traced function, a comment next to an END, a new
# function), --strip -i keeps exactly those edits.
include(${CMAKE_CURRENT_LIST_DIR}/TreeCommon.cmake)

tree_configure()
tree_snapshot(_pristine ${TREE_ROOT})
set(_common -p ${TREE_BUILD} --root ${TREE_ROOT} -j 2)
# The broken file fails every run: exit 1.
tree_annotate(annotate ${_common} -i)
tree_expect_rc(annotate 1)
tree_expect_annotated()
tree_snapshot(_annotated ${TREE_ROOT})

tree_annotate(check ${_common} --strip --check)
tree_expect_rc(check 1)
list(LENGTH TREE_ANNOTATED _files)
tree_count(_would "${check_OUT}" ": would be stripped\n")
if(NOT _would EQUAL _files)
  tree_fail("--strip --check named ${_would} files, expected ${_files}:\n"
            "${check_OUT}")
endif()
tree_annotate(diff ${_common} --strip --diff)
tree_count(_hunks "${diff_OUT}" "\n-[ \t]*DFTRACER_C_FUNCTION_START\\(\\);")
if(NOT _hunks EQUAL TREE_FUNCTIONS_ANNOTATED)
  tree_fail("--strip --diff removes ${_hunks} STARTs, expected "
            "${TREE_FUNCTIONS_ANNOTATED}:\n${diff_OUT}")
endif()
tree_snapshot(_after ${TREE_ROOT})
tree_expect_same_snapshot("${_annotated}" "${_after}" "--strip --check and --diff")

# -o: the stripped copies, under their places in the output directory.
tree_annotate(copies ${_common} --strip -o ${WORK}/stripped)
tree_expect_rc(copies 1)
foreach(_entry ${TREE_ANNOTATED})
  string(REGEX REPLACE "=.*" "" _path "${_entry}")
  tree_expect_pristine(src/${_path} ${WORK}/stripped/${_path})
endforeach()

tree_annotate(strip ${_common} --strip -i --report ${WORK}/strip.json)
tree_expect_rc(strip 1)
tree_snapshot(_stripped ${TREE_ROOT})
tree_expect_same_snapshot("${_pristine}" "${_stripped}" "annotate then strip")
foreach(_f ${TREE_OUTSIDE})
  tree_expect_pristine(${_f} ${TREE_PROJECT}/${_f})
endforeach()
foreach(_entry ${TREE_ANNOTATED})
  string(REGEX REPLACE "=.*" "" _path "${_entry}")
  tree_count(_lines "${strip_ERR}" "annotate: ${_path}: removed [0-9]+ statements")
  if(NOT _lines EQUAL 1)
    tree_fail("stderr has ${_lines} 'removed' lines for ${_path}, expected 1:\n"
              "${strip_ERR}")
  endif()
endforeach()
string(CONCAT _summary "annotate: ${TREE_UNITS} files, ${_files} changed, 1 failed; "
  "${TREE_FUNCTIONS_ANNOTATED} functions stripped, 0 kept; removed [0-9]+ "
  "statements, [0-9]+ value returns?, [0-9]+ pairs? of braces, ${_files} includes")
if(NOT strip_ERR MATCHES "${_summary}")
  tree_fail("summary line does not match '${_summary}':\n${strip_ERR}")
endif()
file(READ ${WORK}/strip.json _report)
string(JSON _stripped GET "${_report}" summary stripped)
string(JSON _includes GET "${_report}" summary removed includes)
if(NOT _stripped EQUAL TREE_FUNCTIONS_ANNOTATED OR NOT _includes EQUAL _files)
  tree_fail("report: ${_stripped} functions stripped and ${_includes} includes "
            "removed, expected ${TREE_FUNCTIONS_ANNOTATED} and ${_files}")
endif()

tree_annotate(again ${_common} --strip --check)
tree_expect_rc(again 1)
if(NOT again_OUT STREQUAL "")
  tree_fail("a second --strip would still change files:\n${again_OUT}")
endif()
tree_annotate(reannotate ${_common} -i)
tree_snapshot(_reannotated ${TREE_ROOT})
tree_expect_same_snapshot("${_annotated}" "${_reannotated}"
                          "annotate, strip, annotate")

# Edits made after annotation survive the strip.
set(_file ${TREE_ROOT}/io/reader.c)
file(READ ${_file} _text)
set(_end "    fclose(f);\n    DFTRACER_C_FUNCTION_END();\n    return lines;\n}\n")
string(FIND "${_text}" "${_end}" _at)
if(_at EQUAL -1)
  tree_fail("io/reader.c: no END before `return lines;`:\n${_text}")
endif()
string(REPLACE "${_end}"
  "    fclose(f);\n    fflush(stdout);\n    DFTRACER_C_FUNCTION_END(); /* counted */\n    return lines;\n}\n"
  _text "${_text}")
set(_new "\nint reader_version(void)\n{\n    return 2;\n}\n")
file(WRITE ${_file} "${_text}${_new}")
tree_annotate(edited ${_common} --strip -i)
file(READ ${PROJECT}/src/io/reader.c _expected)
string(REPLACE "    fclose(f);\n    return lines;\n}\n"
  "    fclose(f);\n    fflush(stdout);\n    /* counted */\n    return lines;\n}\n"
  _expected "${_expected}")
file(READ ${_file} _got)
if(NOT _got STREQUAL "${_expected}${_new}")
  file(WRITE ${WORK}/reader.expected.c "${_expected}${_new}")
  tree_fail("io/reader.c edited after annotation: --strip did not keep the "
            "edits exactly (expected ${WORK}/reader.expected.c):\n${_got}")
endif()
