//===- Installation.cpp ---------------------------------------------------===//

#include "annotate/Installation.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace annotate {

static std::string firstExisting(std::initializer_list<std::string> Dirs,
                                 llvm::StringRef Probe) {
  for (const std::string &Dir : Dirs) {
    llvm::SmallString<256> Path(Dir);
    llvm::sys::path::append(Path, Probe);
    if (!Dir.empty() && llvm::sys::fs::exists(Path))
      return Dir;
  }
  return "";
}

Installation findInstallation(const char *Argv0, void *MainAddr) {
  std::string Exe = llvm::sys::fs::getMainExecutable(Argv0, MainAddr);
  llvm::SmallString<256> Prefix(llvm::sys::path::parent_path(Exe));
  llvm::sys::path::remove_filename(Prefix); // bin/ -> prefix
  llvm::SmallString<256> Rules(Prefix), Include(Prefix);
  llvm::sys::path::append(Rules, "share", "annotate", "rules");
  llvm::sys::path::append(Include, "include");

  Installation I;
  I.RulesDir = firstExisting({std::string(Rules), ANNOTATE_SOURCE_RULES_DIR},
                             "dftracer.json");
  I.RuntimeIncludeDir =
      firstExisting({std::string(Include), ANNOTATE_SOURCE_RUNTIME_INCLUDE_DIR},
                    "dftracer/dftracer.h");
  I.ClangResourceDir = ANNOTATE_CLANG_RESOURCE_DIR;
  return I;
}

} // namespace annotate
