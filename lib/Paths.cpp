//===- Paths.cpp ----------------------------------------------------------===//

#include "Paths.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace annotate {

bool isUnder(llvm::StringRef Path, llvm::StringRef Dir) {
  if (Dir.empty() || !Path.starts_with(Dir))
    return false;
  return Path.size() == Dir.size() ||
         llvm::sys::path::is_separator(Path[Dir.size()]) ||
         llvm::sys::path::is_separator(Dir.back());
}

std::string relativeTo(llvm::StringRef Path, llvm::StringRef Root) {
  if (!Root.empty() && Path.starts_with(Root)) {
    llvm::StringRef Rest = Path.drop_front(Root.size());
    if (Rest.empty() || llvm::sys::path::is_separator(Rest.front()))
      return Rest.ltrim("/").str();
  }
  return Path.str();
}

std::string realPath(llvm::StringRef Path) {
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(Path, Real))
    return Path.str();
  return std::string(Real);
}

std::string canonicalPath(clang::FileManager &FM, clang::FileEntryRef FE) {
  llvm::StringRef Canonical = FM.getCanonicalName(FE);
  if (!Canonical.empty() && llvm::sys::path::is_absolute(Canonical))
    return Canonical.str();
  llvm::SmallString<256> Abs(FE.getName());
  FM.makeAbsolutePath(Abs);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
}

} // namespace annotate
