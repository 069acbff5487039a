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
  if (Root == "/")
    return Path.ltrim('/').str();
  Root = Root.rtrim('/');
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

std::string absolutePath(llvm::StringRef Path, llvm::StringRef Dir) {
  llvm::SmallString<256> Abs(Path);
  if (!llvm::sys::path::is_absolute(Abs)) {
    if (Dir.empty()) {
      llvm::sys::fs::make_absolute(Abs);
    } else {
      Abs = Dir;
      llvm::sys::path::append(Abs, Path);
    }
  }
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
}

std::string realPathToCreate(llvm::StringRef Path) {
  llvm::SmallString<256> Rest;
  llvm::StringRef Existing = Path;
  llvm::sys::fs::file_status Status;
  // lstat: a dangling symbolic link exists, and must not be taken for a
  // name still to be created.
  while (!Existing.empty() &&
         llvm::sys::fs::status(Existing, Status, /*Follow=*/false)) {
    llvm::SmallString<256> Name(llvm::sys::path::filename(Existing));
    llvm::sys::path::append(Name, Rest);
    Rest = Name;
    Existing = llvm::sys::path::parent_path(Existing);
  }
  llvm::SmallString<256> Real;
  if (Existing.empty() || llvm::sys::fs::real_path(Existing, Real))
    return ""; // a dangling link: nowhere we can vouch for
  if (!Rest.empty())
    llvm::sys::path::append(Real, Rest);
  return std::string(Real);
}

std::string openedPath(clang::FileManager &FM, clang::FileEntryRef FE) {
  llvm::SmallString<256> Abs(FE.getName());
  FM.makeAbsolutePath(Abs);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
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

std::string canonicalPath(const clang::SourceManager &SM, clang::FileID FID) {
  clang::OptionalFileEntryRef FE = SM.getFileEntryRefForID(FID);
  return FE ? canonicalPath(SM.getFileManager(), *FE) : std::string();
}

} // namespace annotate
