//===- CompileCommand.h - The language a build compiles a file as -*- C++ -*-===//
//
// annotate must parse each source exactly as the build compiles it. The
// file's extension is not enough: a C++ driver compiles a `.c` file as C++
// (`g++ -c x.c`, `mpicxx -c x.c`, CMake's LANGUAGE CXX under policy
// CMP0119 OLD), and `-x` overrides both. Clang's own driver knows `c++`,
// `g++` and `clang++` (a name ending in `++`) but not `mpicxx`, `CC` or
// `icpc`, so the language is read from the command here and given to
// Clang explicitly:
//
//   mpicxx -O2 -c shapes.c            ->  -x c++ inserted after mpicxx
//   gcc -c main.cpp                   ->  nothing (the extension decides)
//   cc -x c++ -c a.c                  ->  nothing (the command says it)
//
//===----------------------------------------------------------------------===//

#ifndef ANNOTATE_LIB_COMPILECOMMAND_H
#define ANNOTATE_LIB_COMPILECOMMAND_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace annotate {

/// Whether Program, a compiler driver as a command names it
/// ("/usr/bin/mpicxx", "x86_64-linux-gnu-g++-12", "CC"), compiles C
/// sources as C++: "g++", "c++", "clang++", "mpicxx", "mpic++", "mpiCC",
/// "CC", "icpc", ... (the table in CompileCommand.cpp).
bool isCxxDriver(llvm::StringRef Program);

/// The `-x` language in effect for File in CommandLine (the last `-x`
/// before File, or before the end when File is not in it): "c++", "c",
/// "" when none ("-x none" resets it).
std::string explicitLanguage(const std::vector<std::string> &CommandLine,
                             llvm::StringRef File);

/// The `-x` value the build's command implies for File that Clang would
/// not infer from File's name alone: "c++" for a C source, "c++-header"
/// for a C header, when the driver compiles C as C++ (isCxxDriver, or
/// `--driver-mode=g++`) and the command has no `-x` of its own; "" when
/// the extension or the command's own `-x` decides.
std::string impliedLanguage(const std::vector<std::string> &CommandLine,
                            llvm::StringRef File);

/// CommandLine with `-x impliedLanguage(...)` inserted after the program
/// when there is one.
std::vector<std::string>
withImpliedLanguage(std::vector<std::string> CommandLine, llvm::StringRef File);

/// The include directories Driver searches that Clang would not, asked of
/// the driver itself (`Driver -E -v -x Language /dev/null`, as clangd's
/// --query-driver does) once per driver and language: an MPI wrapper's
/// (`mpicxx` adds -I/usr/include/x86_64-linux-gnu/mpich, which no compile
/// command shows). Compiler-internal directories and the standard ones
/// are left out: Clang has its own. Nothing for Clang's own drivers, the
/// tooling placeholder "clang-tool", or a driver that cannot be run.
std::vector<std::string> driverIncludeDirs(llvm::StringRef Driver,
                                           llvm::StringRef Language);

/// CommandLine with `-idirafter D` added at its end for each of
/// driverIncludeDirs(its driver, File's language).
std::vector<std::string>
withDriverIncludeDirs(std::vector<std::string> CommandLine,
                      llvm::StringRef File);

} // namespace annotate

#endif
