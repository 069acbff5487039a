//===- StripPatterns.h - The statements annotate writes, as tokens -*- C++ -*-===//
//
// `annotate --strip` recognises what annotate wrote by the rule set's own
// statements, never by fixed names: each statement of the chosen rule set
// (START, END, INIT, FINI, METADATA, the category updates, C and C++) is
// lexed into tokens once, and code matches when it holds the same tokens
// in any spacing with no comment among them:
//
//   "DFTRACER_C_METADATA(${name}, \"${key}\", \"${value}\");"
//     matches  DFTRACER_C_METADATA(annotate_meta_0, "app", "ior");
//
// A placeholder outside a string literal matches one identifier (${name}:
// the annotate_meta_N that annotate writes); a string literal holding one
// matches one or more adjacent string literals (annotate escapes control
// characters as "\x01""...").
//
//===----------------------------------------------------------------------===//

#ifndef ANNOTATE_LIB_STRIPPATTERNS_H
#define ANNOTATE_LIB_STRIPPATTERNS_H

#include "SourceText.h"
#include "annotate/RuleSet.h"

#include <optional>
#include <string>
#include <vector>

namespace annotate {

/// What a statement annotate writes does, in the order annotate writes a
/// group of them: INIT, START, METADATA, the category update open a span
/// (after `{` or the MPI_Init statement); END and FINI close it.
enum class StatementKind { Init, Start, Metadata, Category, End, Fini };

inline bool opensSpan(StatementKind K) { return K < StatementKind::End; }

/// "START", "END", ... for messages.
const char *describe(StatementKind K);

class StatementPattern {
public:
  /// Lexes Statement ("DFTRACER_C_FUNCTION_END();") as code of LO's
  /// language. None when it holds no token.
  static std::optional<StatementPattern>
  compile(StatementKind Kind, llvm::StringRef Statement,
          const clang::LangOptions &LO);

  StatementKind kind() const { return Kind; }
  /// The first token's spelling, an identifier for every statement of the
  /// shipped rule sets: the macro whose expansions are indexed.
  llvm::StringRef head() const { return Tokens.front().Text; }

  /// The offset just past the statement's last token (its `;`) when the
  /// code at Offset of Text is this statement.
  std::optional<unsigned> match(const SourceText &Text, unsigned Offset) const;

private:
  struct PatternToken {
    clang::tok::TokenKind Kind;
    /// Identifiers' and literals' spelling; "" for punctuation.
    std::string Text;
    enum { Exact, AnyIdentifier, MetadataName, Strings } Match = Exact;
  };

  StatementKind Kind = StatementKind::Start;
  std::vector<PatternToken> Tokens;
};

/// Every statement of a rule set, C and C++ forms.
class StripPatterns {
public:
  StripPatterns(const RuleSet &Rules, const clang::LangOptions &LO);

  /// The macro names to index (heads of the statements), known before
  /// parsing: "DFTRACER_C_FUNCTION_START", ...
  static std::vector<std::string> markers(const RuleSet &Rules);

  struct Match {
    StatementKind Kind;
    /// Just past the statement's `;`.
    unsigned End;
  };
  /// The statement of the rule set written at Offset, if any.
  std::optional<Match> match(const SourceText &Text, unsigned Offset) const;

private:
  std::vector<StatementPattern> Patterns;
};

} // namespace annotate

#endif
