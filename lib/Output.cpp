//===- Output.cpp - Atomic writes -----------------------------------------===//

#include "annotate/Output.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace annotate {

llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Contents) {
  llvm::StringRef Dir = llvm::sys::path::parent_path(Path);
  if (!Dir.empty())
    if (std::error_code EC = llvm::sys::fs::create_directories(Dir))
      return llvm::createStringError(EC, "cannot create directory '%s': %s",
                                     Dir.str().c_str(), EC.message().c_str());
  llvm::SmallString<256> Model(Path);
  Model += ".annotate-%%%%%%.tmp";
  int FD;
  llvm::SmallString<256> Temp;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Model, FD, Temp))
    return llvm::createStringError(EC, "cannot write next to '%s': %s",
                                   Path.str().c_str(), EC.message().c_str());
  {
    llvm::raw_fd_ostream Out(FD, /*shouldClose=*/true);
    Out << Contents;
    Out.flush();
    if (Out.has_error()) {
      std::error_code EC = Out.error();
      Out.clear_error();
      llvm::sys::fs::remove(Temp);
      return llvm::createStringError(EC, "cannot write '%s': %s",
                                     Temp.c_str(), EC.message().c_str());
    }
  }
  llvm::ErrorOr<llvm::sys::fs::perms> Perms =
      llvm::sys::fs::getPermissions(Path);
  if (Perms)
    llvm::sys::fs::setPermissions(Temp, *Perms);
  if (std::error_code EC = llvm::sys::fs::rename(Temp, Path)) {
    llvm::sys::fs::remove(Temp);
    return llvm::createStringError(EC, "cannot replace '%s': %s",
                                   Path.str().c_str(), EC.message().c_str());
  }
  return llvm::Error::success();
}

} // namespace annotate
