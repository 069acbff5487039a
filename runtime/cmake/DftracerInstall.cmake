# Install rules of the runtime, all in component `dftracer_runtime` so that
#   cmake --install <build> --component dftracer_runtime --prefix <dir>
# installs the runtime alone, from the top-level build too.
#
# Consumers then use either
#   find_package(dftracer CONFIG REQUIRED)
#   target_link_libraries(app PRIVATE dftracer::dftracer_core)   # or _static
# or
#   cc app.c $(pkg-config --cflags --libs dftracer_core)
include(CMakePackageConfigHelpers)

set(_dft_component COMPONENT dftracer_runtime)
set(_dft_cmakedir ${CMAKE_INSTALL_LIBDIR}/cmake/dftracer)

# dftracer-check and dftracer-analyze join this export set from
# analysis/tools/CMakeLists.txt.
install(TARGETS dftracer_headers dftracer_core dftracer_core_static
  EXPORT dftracerTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} ${_dft_component}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} ${_dft_component}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} ${_dft_component})
# The preload name, a link to the shared library (see CMakeLists.txt).
install(FILES $<TARGET_FILE_DIR:dftracer_core>/libdftracer_preload.so
  DESTINATION ${CMAKE_INSTALL_LIBDIR} ${_dft_component})
install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/include/dftracer
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} ${_dft_component})
install(EXPORT dftracerTargets NAMESPACE dftracer::
  DESTINATION ${_dft_cmakedir} ${_dft_component})

configure_package_config_file(
  ${CMAKE_CURRENT_SOURCE_DIR}/cmake/dftracer-config.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/dftracer-config.cmake
  INSTALL_DESTINATION ${_dft_cmakedir})
write_basic_package_version_file(
  ${CMAKE_CURRENT_BINARY_DIR}/dftracer-config-version.cmake
  VERSION ${DFTRACER_RUNTIME_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES
  ${CMAKE_CURRENT_BINARY_DIR}/dftracer-config.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/dftracer-config-version.cmake
  DESTINATION ${_dft_cmakedir} ${_dft_component})

# pkg-config: the prefix is found relative to the .pc file (${pcfiledir}), so
# `cmake --install --prefix` anywhere, or moving the tree, keeps it right.
file(RELATIVE_PATH DFTRACER_PC_TO_PREFIX
  /root/${CMAKE_INSTALL_LIBDIR}/pkgconfig /root)
string(REGEX REPLACE "/$" "" DFTRACER_PC_TO_PREFIX "${DFTRACER_PC_TO_PREFIX}")
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/dftracer_core.pc.in
  ${CMAKE_CURRENT_BINARY_DIR}/dftracer_core.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/dftracer_core.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig ${_dft_component})
