//===- ConditionalCalls.h - #if blocks of main that start or stop MPI -*- C++ -*-===//
//
// Optional MPI, as HPCG and LULESH write it:
//
//   int main(int argc, char **argv)          int main(int argc, char **argv)
//   {                                        {
//   #ifdef USE_MPI                           #ifdef USE_MPI
//       MPI_Init(&argc, &argv);                  MPI_Init(&argc, &argv);
//   #endif                          ==>      #endif
//       run();                                   DFTRACER_C_INIT(NULL, NULL, NULL);
//   #ifdef USE_MPI                               DFTRACER_C_FUNCTION_START();
//       MPI_Finalize();                          run();
//   #endif                                       DFTRACER_C_FUNCTION_END();
//       return 0;                                DFTRACER_C_FINI();
//   }                                        #ifdef USE_MPI
//                                                MPI_Finalize();
//                                            #endif
//                                                return 0;
//                                            }
//
// INIT after the `#endif` of the block that may start MPI, and END + FINI
// before the `#if` of the block that may stop it, are right in every
// configuration: with USE_MPI the tracer starts once MPI is up and stops
// before it goes down, without it they are plain statements. The blocks are
// found by their text (the raw lexer, every branch, compiled or skipped),
// so that every configuration of the file places them alike and their
// merged plans agree (docs/rules.md §4, §12).
//
//===----------------------------------------------------------------------===//

#ifndef ANNOTATE_LIB_CONDITIONALCALLS_H
#define ANNOTATE_LIB_CONDITIONALCALLS_H

#include "PreprocessorIndex.h"
#include "SourceText.h"

#include "clang/AST/Stmt.h"

#include <string>
#include <utility>
#include <vector>

namespace annotate {

/// The conditionals (#if ... #endif) of Body, in file order, that stand
/// between its top-level statements (never inside one) and are not inside
/// another conditional of the body, and whose text, in any branch, calls
/// one of Names (`MPI_Init (`, also as a macro argument). Each is [offset
/// of its `#if` line, offset of the line break ending its `#endif` line).
std::vector<std::pair<unsigned, unsigned>>
conditionalsCalling(const clang::CompoundStmt &Body, const SourceText &Text,
                    const PreprocessorIndex &PP,
                    llvm::ArrayRef<std::string> Names);

} // namespace annotate

#endif
