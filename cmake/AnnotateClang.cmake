# Locates LLVM/Clang for the rewriting library.
#
# Debian ships Clang's CMake package under /usr/lib/llvm-N; `find_package(Clang 19
# CONFIG)` fails there because the package version is 19.1, so search by
# directory instead, newest first. Any Clang from 16 to 19 works; pass
# -DClang_DIR=... to pick one explicitly.
if(NOT Clang_DIR)
  foreach(_ver 19 18 17 16)
    if(EXISTS "/usr/lib/llvm-${_ver}/lib/cmake/clang/ClangConfig.cmake")
      set(Clang_DIR "/usr/lib/llvm-${_ver}/lib/cmake/clang")
      break()
    endif()
  endforeach()
endif()
find_package(Clang REQUIRED CONFIG)
if(LLVM_PACKAGE_VERSION VERSION_LESS 16)
  message(FATAL_ERROR "annotate needs LLVM/Clang 16 or newer, found ${LLVM_PACKAGE_VERSION}")
endif()
message(STATUS "annotate: using LLVM/Clang ${LLVM_PACKAGE_VERSION} from ${LLVM_INSTALL_PREFIX}")

# Clang's builtin headers (stddef.h, stdarg.h, ...) live in its resource
# directory. A LibTooling binary looks for them next to itself, which fails
# for a binary in a build tree, so record where the compiler keeps them.
find_program(ANNOTATE_CLANG_EXECUTABLE
  NAMES clang-${LLVM_VERSION_MAJOR} clang
  HINTS "${LLVM_TOOLS_BINARY_DIR}" NO_DEFAULT_PATH)
execute_process(COMMAND "${ANNOTATE_CLANG_EXECUTABLE}" -print-resource-dir
  OUTPUT_VARIABLE ANNOTATE_CLANG_RESOURCE_DIR OUTPUT_STRIP_TRAILING_WHITESPACE)

# Links a target against Clang: the shared libclang-cpp when LLVM was built
# that way (Debian), the component libraries otherwise.
function(annotate_link_clang target)
  target_include_directories(${target} SYSTEM PUBLIC ${LLVM_INCLUDE_DIRS} ${CLANG_INCLUDE_DIRS})
  target_compile_definitions(${target} PUBLIC ${LLVM_DEFINITIONS})
  if(NOT LLVM_ENABLE_RTTI)
    target_compile_options(${target} PUBLIC -fno-rtti)
  endif()
  if(TARGET clang-cpp AND LLVM_LINK_LLVM_DYLIB)
    target_link_libraries(${target} PUBLIC clang-cpp LLVM)
  else()
    target_link_libraries(${target} PUBLIC clangTooling clangToolingCore clangTransformer
      clangFrontend clangAnalysis clangAST clangLex clangBasic LLVMSupport)
  endif()
endfunction()
