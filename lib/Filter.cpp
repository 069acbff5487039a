//===- Filter.cpp ---------------------------------------------------------===//

#include "annotate/Filter.h"

#include "llvm/Support/MemoryBuffer.h"

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

llvm::Error readFilterFile(llvm::StringRef Path, Filter &Functions,
                           Filter &Files) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "%s: cannot read: %s",
                                   Path.str().c_str(),
                                   Buffer.getError().message().c_str());
  llvm::StringRef Text = (*Buffer)->getBuffer();
  unsigned LineNo = 0;
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    Text = Rest;
    ++LineNo;
    std::string Where = (Path + ":" + llvm::Twine(LineNo)).str();
    auto Fail = [&](const llvm::Twine &Why) {
      return llvm::createStringError(std::errc::invalid_argument, "%s: %s",
                                     Where.c_str(), Why.str().c_str());
    };
    Line = Line.trim();
    if (Line.empty() || Line.starts_with("#"))
      continue;
    auto [Verb, Spelled] = Line.split(' ');
    Spelled = Spelled.trim();
    bool Include = Verb.starts_with("include-");
    bool OnFiles = Verb.ends_with("-file");
    if (Verb != "include-function" && Verb != "exclude-function" &&
        Verb != "include-file" && Verb != "exclude-file")
      return Fail("unknown rule '" + Verb +
                  "' (expected exclude-function, include-function, "
                  "exclude-file or include-file)");
    if (Spelled.empty())
      return Fail("'" + Verb + "' needs a pattern");
    auto P = Pattern::compile(Spelled);
    if (!P)
      return Fail(llvm::toString(P.takeError()));
    (OnFiles ? Files : Functions).add({Include, std::move(*P), Where});
  }
  return llvm::Error::success();
}

} // namespace annotate
