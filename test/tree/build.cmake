# tree.verify.build: the tree annotated by tree.verify.annotate builds
# (every default target, legacy_tool.c restored) against the runtime's
# header, and links libdftracer_core.
include(${CMAKE_CURRENT_LIST_DIR}/TreeCommon.cmake)

# A build directory of its own: the other phases keep reading WORK/build's
# compile database meanwhile.
set(_build ${WORK}/build-traced)
tree_cmake(configure -S ${TREE_PROJECT} -B ${_build}
  -DTREE_TRACER_INCLUDE_DIR=${RUNTIME_INCLUDE}
  -DTREE_TRACER_LIBRARY=${RUNTIME_LIBRARY})
tree_cmake(build --build ${_build})
foreach(_exe tree_app tree_buffer_selftest tree_legacy)
  if(NOT EXISTS ${_build}/${_exe})
    tree_fail("${_exe} was not built")
  endif()
endforeach()
