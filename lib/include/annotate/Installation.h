//===- Installation.h - Where annotate finds its data ----------*- C++ -*-===//
//
// An installed annotate finds its rule sets and the tracer header next to
// itself (<prefix>/bin/annotate -> <prefix>/share/annotate/rules,
// <prefix>/include); one run from a build tree falls back to the source
// tree it was configured from.
//
//===----------------------------------------------------------------------===//

#ifndef ANNOTATE_INSTALLATION_H
#define ANNOTATE_INSTALLATION_H

#include <string>

namespace annotate {

struct Installation {
  std::string RulesDir;
  std::string RuntimeIncludeDir;
  std::string ClangResourceDir;
};

/// Argv0 and MainAddr locate the running executable.
Installation findInstallation(const char *Argv0, void *MainAddr);

} // namespace annotate

#endif
