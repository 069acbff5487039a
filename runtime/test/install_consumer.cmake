# Installs the runtime component into a temporary prefix and builds a
# consumer against it, through the CMake package and through pkg-config.
# Every consumer runs traced; the installed dftracer-check validates it.
#
#   cmake -DBUILD_DIR=<build> -DSOURCE_DIR=<runtime/test/install>
#         -DWORK_DIR=<dir> -DGENERATOR=<gen> -DC_COMPILER=<cc> -P install_consumer.cmake
cmake_minimum_required(VERSION 3.20)

include(${CMAKE_CURRENT_LIST_DIR}/run_command.cmake)

set(_prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --component dftracer_runtime
    --prefix ${_prefix})
file(GLOB_RECURSE _pc ${_prefix}/*/dftracer_core.pc)
file(GLOB_RECURSE _checker ${_prefix}/bin/dftracer-check)
if(NOT _pc OR NOT _checker OR NOT EXISTS ${_prefix}/include/dftracer/dftracer.h)
  message(FATAL_ERROR "install tree incomplete under ${_prefix}")
endif()

# 1. CMake package.
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
    -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_PREFIX_PATH=${_prefix})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
set(_programs consumer_shared consumer_static consumer_vars)

# 2. pkg-config, shared and static.
find_program(_pkgconfig pkg-config)
if(_pkgconfig)
  get_filename_component(_pcdir ${_pc} DIRECTORY)
  set(ENV{PKG_CONFIG_PATH} ${_pcdir})
  run(${_pkgconfig} --cflags --libs dftracer_core)
  separate_arguments(_flags UNIX_COMMAND "${RUN_OUTPUT}")
  run(${C_COMPILER} ${SOURCE_DIR}/consumer.c ${_flags}
      -o ${WORK_DIR}/build/consumer_pkgconfig)
  run(${_pkgconfig} --cflags --libs --static dftracer_core)
  separate_arguments(_flags UNIX_COMMAND "${RUN_OUTPUT}")
  run(${C_COMPILER} ${SOURCE_DIR}/consumer.c -static-libgcc
      ${_flags} -Wl,-Bstatic -ldftracer_core -Wl,-Bdynamic -lz -lpthread
      -o ${WORK_DIR}/build/consumer_pkgconfig_static)
  list(APPEND _programs consumer_pkgconfig consumer_pkgconfig_static)
else()
  message(WARNING "pkg-config not found: pkg-config file not exercised")
endif()

# 3. Each consumer traces one file that the installed checker accepts.
get_filename_component(_libdir ${_pc} DIRECTORY)
get_filename_component(_libdir ${_libdir} DIRECTORY)
foreach(_p IN LISTS _programs)
  file(MAKE_DIRECTORY ${WORK_DIR}/traces/${_p})
  run(${CMAKE_COMMAND} -E env LD_LIBRARY_PATH=${_libdir} DFTRACER_ENABLE=1
      DFTRACER_LOG_FILE=${WORK_DIR}/traces/${_p}/trace
      ${WORK_DIR}/build/${_p})
  file(WRITE ${WORK_DIR}/counts.json "{\"main\": 1, \"work\": 1}")
  run(${_checker} --expect-counts ${WORK_DIR}/counts.json
      ${WORK_DIR}/traces/${_p})
  message(STATUS "${_p}: traced and checked")
endforeach()
