//===- Filter.h - Include/exclude rules for functions and files -*- C++ -*-===//
//
// Which functions and files are annotated is decided by ordered rules, the
// last match winning (as in Score-P filter files):
//
//   "functions": [{"exclude": "*"}, {"include": "h5_*"}, {"exclude": "re:_cb$"}]
//
// annotates the functions whose name starts with h5_ except callbacks.
// Patterns are globs (`*`, `?`, `[...]`, `{a,b}`; `*` also crosses `/` and
// `::`) or, after `re:`, extended regular expressions searched in the name.
// Function rules see qualified names in C++ (`ns::Class::method`); file
// rules see paths relative to --root.
//
//===----------------------------------------------------------------------===//

#ifndef ANNOTATE_FILTER_H
#define ANNOTATE_FILTER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace annotate {

/// A compiled glob or regular expression.
class Pattern {
public:
  /// "h5_*", "re:^H5[A-Z]", ...
  static llvm::Expected<Pattern> compile(llvm::StringRef Text);
  bool matches(llvm::StringRef Name) const;
  const std::string &text() const { return Text; }

private:
  struct Compiled;
  std::string Text;
  std::shared_ptr<const Compiled> Impl;
};

struct FilterRule {
  bool Include = true;
  Pattern What;
  /// Where the rule comes from, for --explain: "rules/app.json" or
  /// "--exclude-function".
  std::string Origin;

  /// "exclude 'h5_*' (rules/app.json)"
  std::string describe() const;
};

class Filter {
public:
  void add(FilterRule Rule) { Rules.push_back(std::move(Rule)); }
  bool empty() const { return Rules.empty(); }
  /// The last rule matching Name, or null (then the default applies).
  const FilterRule *lastMatch(llvm::StringRef Name) const;

private:
  std::vector<FilterRule> Rules;
};

/// Reads a filter file (`annotate --filter-file FILE`, written by
/// `dftracer-analyze --suggest-filter`): UTF-8 text, one rule per line,
/// `#` starting a comment line, blank lines ignored; each rule is
/// `exclude-function P`, `include-function P`, `exclude-file P` or
/// `include-file P`, P as for the options of the same name (glob, or
/// re:REGEX). Adds them, in file order, to Functions and Files, each with
/// the origin "FILE:LINE". Errors read `FILE:LINE: reason`.
llvm::Error readFilterFile(llvm::StringRef Path, Filter &Functions,
                           Filter &Files);

} // namespace annotate

#endif
