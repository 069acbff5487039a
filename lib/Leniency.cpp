//===- Leniency.cpp - Code GCC accepts and Clang rejects ------------------===//

#include "Leniency.h"

#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"

namespace annotate {
namespace {

/// A Clang warning group that is an error by default, for code GCC
/// accepts. Checked against Clang 19 and GCC 12.
struct Lenient {
  /// The group, as in [-Wgroup]: "c++11-narrowing"
  llvm::StringLiteral Group;
  /// The flag that turns it off: "-Wno-c++11-narrowing"
  llvm::StringLiteral Flag;
  /// Applied to every parse, silently; else only when a unit fails with
  /// nothing but errors of the table, with a warning.
  bool Always;
};

constexpr Lenient Table[] = {
    // C: GCC before 14 accepts these with a warning; Clang 16+ rejects.
    {"implicit-function-declaration",
     "-Wno-error=implicit-function-declaration", true},
    {"implicit-int", "-Wno-error=implicit-int", true},
    {"int-conversion", "-Wno-error=int-conversion", true},
    {"incompatible-pointer-types", "-Wno-error=incompatible-pointer-types",
     true},
    {"incompatible-function-pointer-types",
     "-Wno-error=incompatible-function-pointer-types", true},
    // C: `return;` in an int function, `return x;` in a void one (GCC:
    // a warning before 14).
    {"return-mismatch", "-Wno-return-mismatch", false},
    // C++: g++ warns (-Wnarrowing) about narrowing a non-constant in braces.
    {"c++11-narrowing", "-Wno-c++11-narrowing", false},
    {"c++11-narrowing-const-reference",
     "-Wno-c++11-narrowing-const-reference", false},
    // C++17 `register`: g++ warns (-Wregister).
    {"register", "-Wno-register", false},
    // "%"PRId64 without a space: g++ warns (-Wliteral-suffix).
    {"reserved-user-defined-literal", "-Wno-reserved-user-defined-literal",
     false},
    // An out-of-range value of an unscoped enum in a constant expression.
    {"enum-constexpr-conversion", "-Wno-enum-constexpr-conversion", false},
    // `x.template f` without a template argument list.
    {"missing-template-arg-list-after-template-kw",
     "-Wno-missing-template-arg-list-after-template-kw", false},
};

const Lenient *lookup(llvm::StringRef Group) {
  for (const Lenient &L : Table)
    if (L.Group == Group)
      return &L;
  return nullptr;
}

} // namespace

std::string ParseError::format() const {
  return Where.empty() ? Message : Where + ": " + Message;
}

std::string ParseError::located() const {
  return Where.empty() ? "from the driver: " + Message
                       : "at " + Where + ": " + Message;
}

std::vector<std::string> alwaysLenient() {
  std::vector<std::string> Flags;
  for (const Lenient &L : Table)
    if (L.Always)
      Flags.push_back(L.Flag.str());
  return Flags;
}

std::vector<std::string> leniencyFor(const std::vector<ParseError> &Errors) {
  std::vector<std::string> Flags;
  for (const ParseError &E : Errors) {
    const Lenient *L = lookup(E.Group);
    if (!L || L->Always)
      return {};
    if (!llvm::is_contained(Flags, L->Flag))
      Flags.push_back(L->Flag.str());
  }
  return Flags;
}

std::string hintFor(const ParseError &First, bool ParsedAsCxx,
                    bool LanguageGiven) {
  if (!First.Group.empty())
    return "if your compiler accepts it, try --extra-arg=-Wno-" + First.Group;
  if (!ParsedAsCxx && !LanguageGiven)
    return "parsed as C: if the build compiles it as C++, try "
           "--extra-arg-before=-xc++; else give Clang the flag it needs "
           "with --extra-arg=FLAG";
  return "if your compiler accepts it, give Clang the flag it needs "
         "(-std=, -D, -I) with --extra-arg=FLAG";
}

void ErrorRecorder::BeginSourceFile(const clang::LangOptions &LO,
                                    const clang::Preprocessor *PP) {
  Cxx = LO.CPlusPlus;
  Next.BeginSourceFile(LO, PP);
}

void ErrorRecorder::EndSourceFile() { Next.EndSourceFile(); }

void ErrorRecorder::finish() { Next.finish(); }

void ErrorRecorder::HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                                     const clang::Diagnostic &Info) {
  DiagnosticConsumer::HandleDiagnostic(Level, Info);
  if (Level >= clang::DiagnosticsEngine::Error) {
    ParseError E;
    llvm::SmallString<128> Text;
    Info.FormatDiagnostic(Text);
    E.Message = Text.str().str();
    E.Group = clang::DiagnosticIDs::getWarningOptionForDiag(Info.getID()).str();
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      const clang::SourceManager &SM = Info.getSourceManager();
      clang::PresumedLoc P = SM.getPresumedLoc(SM.getFileLoc(Info.getLocation()));
      if (P.isValid())
        E.Where = std::string(P.getFilename()) + ":" +
                  std::to_string(P.getLine()) + ":" +
                  std::to_string(P.getColumn());
    }
    Errors.push_back(std::move(E));
  }
  Next.HandleDiagnostic(Level, Info);
}

} // namespace annotate
