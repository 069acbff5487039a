//===- DataFile.h - A data file installed beside dftracer-analyze -*- C++ -*-===//
//
// The analyzer's data files (the --suggest-filter thresholds, the diagnosis
// rules) are copied next to the binary in a build tree and installed under
// share/dftracer: either place is found from /proc/self/exe, so a build
// and an install both work without a configured path.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_ANALYZE_DATAFILE_H
#define DFTRACER_ANALYZE_DATAFILE_H

#include <filesystem>
#include <string>
#include <system_error>

namespace dftanalyze {

/// The path of Name beside the running binary or in ../share/dftracer,
/// or "" when it is in neither.
inline std::string installedDataFile(const std::string &Name) {
  namespace fs = std::filesystem;
  std::error_code Ec;
  fs::path Exe = fs::read_symlink("/proc/self/exe", Ec);
  if (Ec)
    return "";
  fs::path Dir = Exe.parent_path();
  for (const fs::path &P : {Dir / Name, Dir / ".." / "share" / "dftracer" / Name})
    if (fs::is_regular_file(P, Ec))
      return P.lexically_normal().string();
  return "";
}

} // namespace dftanalyze

#endif
