//===- IncludePlanner.h - Where the tracer's #include goes -----*- C++ -*-===//
//
// `#include <dftracer/dftracer.h>` is added once per changed file, after the
// last #include that is not inside a conditional block (one in
// `#ifdef HAVE_MPI` may vanish in another configuration), or else after the
// comment block that opens the file:
//
//   #include <stdio.h>                 #include <stdio.h>
//   #ifdef HAVE_HDF5           ==>     #include <dftracer/dftracer.h>
//   #include <hdf5.h>                  #ifdef HAVE_HDF5
//   #endif                             #include <hdf5.h>
//                                      #endif
//
//===----------------------------------------------------------------------===//

#ifndef ANNOTATE_LIB_INCLUDEPLANNER_H
#define ANNOTATE_LIB_INCLUDEPLANNER_H

#include "PreprocessorIndex.h"
#include "SourceText.h"
#include "annotate/Edits.h"

#include <optional>

namespace annotate {

/// The include edit for a file, or none when it already includes Header.
/// FirstEdit is the offset of the first other edit of the file: the include
/// must come before it. IncludeGuarded says the file's first conditional is
/// an include guard, which does not count as a conditional block.
/// LineDirective, when not empty, is the file name to restore with a #line
/// after the include, so that the lines after it keep their numbers.
std::optional<Edit> planInclude(llvm::StringRef Header, const SourceText &Text,
                                const PreprocessorIndex &PP, unsigned FirstEdit,
                                bool IncludeGuarded,
                                llvm::StringRef LineDirective = "");

/// `#line N "File"` and Break, the name escaped for a string literal.
std::string lineDirective(unsigned Line, llvm::StringRef File,
                          llvm::StringRef Break);

} // namespace annotate

#endif
