//===- Filter.cpp ---------------------------------------------------------===//

#include "annotate/Filter.h"

#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/Regex.h"

namespace annotate {

struct Pattern::Compiled {
  /// GlobPattern keeps references into its text: it lives here, with it.
  std::string Text;
  std::optional<llvm::GlobPattern> Glob;
  std::unique_ptr<llvm::Regex> Re;
};

llvm::Expected<Pattern> Pattern::compile(llvm::StringRef Text) {
  auto Impl = std::make_shared<Compiled>();
  Impl->Text = Text.str();
  if (Text.starts_with("re:")) {
    Impl->Re = std::make_unique<llvm::Regex>(Text.drop_front(3));
    std::string Error;
    if (!Impl->Re->isValid(Error))
      return llvm::createStringError(std::errc::invalid_argument,
                                     "invalid regular expression '%s': %s",
                                     Text.str().c_str(), Error.c_str());
  } else {
    auto Glob = llvm::GlobPattern::create(Impl->Text, /*MaxSubPatterns=*/1024);
    if (!Glob)
      return llvm::createStringError(
          std::errc::invalid_argument, "invalid glob '%s': %s",
          Text.str().c_str(), llvm::toString(Glob.takeError()).c_str());
    Impl->Glob = std::move(*Glob);
  }
  Pattern P;
  P.Text = Text.str();
  P.Impl = std::move(Impl);
  return P;
}

bool Pattern::matches(llvm::StringRef Name) const {
  if (!Impl)
    return false;
  return Impl->Re ? Impl->Re->match(Name) : Impl->Glob->match(Name);
}

std::string FilterRule::describe() const {
  return std::string(Include ? "include" : "exclude") + " '" + What.text() +
         "' (" + Origin + ")";
}

const FilterRule *Filter::lastMatch(llvm::StringRef Name) const {
  for (auto It = Rules.rbegin(); It != Rules.rend(); ++It)
    if (It->What.matches(Name))
      return &*It;
  return nullptr;
}

} // namespace annotate
