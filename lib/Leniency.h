//===- Leniency.h - Code GCC accepts and Clang rejects ----------*- C++ -*-===//
//
// annotate parses with Clang, the build usually compiles with GCC, and some
// code GCC accepts (with a warning) Clang rejects by default: a narrowing
// conversion in C++11 braces, `register` in C++17, "%"PRId64 without a
// space, an implicit function declaration in C99. Each of those is a Clang
// warning that is an error by default, in a warning group that turns it
// off. The table in Leniency.cpp maps the group to the flag:
//
//   main.cpp:6:14: error: type 'double' cannot be narrowed to 'int' in
//                  initializer list [-Wc++11-narrowing]
//   -> parsed again with -Wno-c++11-narrowing, and one warning says so
//
// Groups marked "always" are turned off on every parse (C code that relies
// on them is common and GCC before 14 accepts it silently); the others only
// when a unit fails with nothing but such errors, so the user hears about
// it. When a unit still fails, the message names its first error and the
// flag to try with --extra-arg.
//
//===----------------------------------------------------------------------===//

#ifndef ANNOTATE_LIB_LENIENCY_H
#define ANNOTATE_LIB_LENIENCY_H

#include "clang/Basic/Diagnostic.h"

#include <string>
#include <vector>

namespace annotate {

/// An error Clang reported while parsing a unit.
struct ParseError {
  /// "/src/main.cpp:6:14", "" for the driver's errors (an unknown option).
  std::string Where;
  /// "type 'double' cannot be narrowed to 'int' in initializer list"
  std::string Message;
  /// Its warning group, when it is a warning that is an error by default:
  /// "c++11-narrowing"; "" for a hard error.
  std::string Group;

  /// "/src/main.cpp:6:14: type 'double' cannot be ..."
  std::string format() const;
  /// "at /src/main.cpp:6:14: type 'double' ..." (no second "error:" on
  /// the line that says the file failed), "from the driver: ..."
  std::string located() const;
};

/// Flags added to every parse: the groups of the table marked "always".
std::vector<std::string> alwaysLenient();

/// The flags that make Clang accept Errors (each group's once, in the
/// order found), or none when one of them is not in the table (a real
/// error, which no flag of ours should hide).
std::vector<std::string> leniencyFor(const std::vector<ParseError> &Errors);

/// What to try when a unit still fails with First as its first error:
/// "try --extra-arg=-Wno-vla-cxx-extension", or for a unit parsed as C by
/// its extension (no -x in its command: LanguageGiven false), "if the
/// build compiles it as C++, try --extra-arg-before=-xc++".
std::string hintFor(const ParseError &First, bool ParsedAsCxx,
                    bool LanguageGiven);

/// Forwards every diagnostic to another consumer (the printer) and keeps
/// the errors, with their warning group.
class ErrorRecorder : public clang::DiagnosticConsumer {
public:
  explicit ErrorRecorder(clang::DiagnosticConsumer &Next) : Next(Next) {}

  void BeginSourceFile(const clang::LangOptions &LO,
                       const clang::Preprocessor *PP) override;
  void EndSourceFile() override;
  void finish() override;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override;

  std::vector<ParseError> Errors;
  /// The unit was parsed as C++.
  bool Cxx = false;

private:
  clang::DiagnosticConsumer &Next;
};

} // namespace annotate

#endif
