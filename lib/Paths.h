//===- Paths.h - Absolute, real and root-relative paths ---------*- C++ -*-===//
//
// Every file annotate reads or writes is named by its real path (absolute,
// no `.`, `..` or symbolic links), so that one file reached through two
// names is one file, and --root decides what is ours by real location.
//
//===----------------------------------------------------------------------===//

#ifndef ANNOTATE_LIB_PATHS_H
#define ANNOTATE_LIB_PATHS_H

#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace annotate {

/// Whether Path lies under the directory Dir (both absolute): "/a/b" is
/// under "/a", "/ab" is not.
bool isUnder(llvm::StringRef Path, llvm::StringRef Dir);

/// Path relative to Root ("src/io.c"), or Path itself when it is not under
/// Root.
std::string relativeTo(llvm::StringRef Path, llvm::StringRef Root);

/// The real path of Path, or Path itself when it does not exist.
std::string realPath(llvm::StringRef Path);

/// Path made absolute against Dir (the current directory when empty), with
/// `.` and `..` removed lexically: the name a user gave, not its target.
std::string absolutePath(llvm::StringRef Path, llvm::StringRef Dir = "");

/// The real path of the longest existing prefix of Path, followed by the
/// rest: where a file created at Path would really be. "" when a dangling
/// symbolic link is in the way.
std::string realPathToCreate(llvm::StringRef Path);

/// The name through which the compiler opened a file, absolute (symbolic
/// links kept): what the user or the include directive named.
std::string openedPath(clang::FileManager &FM, clang::FileEntryRef FE);

/// The absolute, symlink-free path of a file the compiler opened. Names in
/// a compile command are relative to its directory, which is the file
/// manager's working directory, not the process's.
std::string canonicalPath(clang::FileManager &FM, clang::FileEntryRef FE);
/// The same for the file of FID; "" when FID is not a file.
std::string canonicalPath(const clang::SourceManager &SM, clang::FileID FID);

} // namespace annotate

#endif
