//===- StripPatterns.cpp - The statements annotate writes, as tokens ------===//

#include "StripPatterns.h"
#include "FunctionPlanner.h"

#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;

namespace annotate {

const char *describe(StatementKind K) {
  switch (K) {
  case StatementKind::Init:
    return "INIT";
  case StatementKind::Start:
    return "START";
  case StatementKind::Metadata:
    return "METADATA";
  case StatementKind::Category:
    return "the category update";
  case StatementKind::End:
    return "END";
  case StatementKind::Fini:
    return "FINI";
  }
  return "";
}

/// Placeholders are lexed as identifiers with this prefix (inside string
/// literals too), then told apart from the literal tokens.
static constexpr llvm::StringLiteral PlaceholderPrefix = "annotate_placeholder_";

/// What a token spells, for comparison: identifiers and literals by their
/// text, punctuation by its kind alone.
static StringRef spelling(const Token &Tok) {
  if (Tok.is(tok::raw_identifier))
    return Tok.getRawIdentifier();
  if (Tok.isLiteral())
    return StringRef(Tok.getLiteralData(), Tok.getLength());
  return "";
}

std::optional<StatementPattern>
StatementPattern::compile(StatementKind Kind, StringRef Statement,
                          const LangOptions &LO) {
  std::string Text;
  for (size_t At = 0; At < Statement.size();) {
    size_t Open = Statement.find("${", At);
    size_t Close = Open == StringRef::npos ? Open : Statement.find('}', Open);
    if (Close == StringRef::npos) {
      Text += Statement.substr(At);
      break;
    }
    Text += Statement.slice(At, Open);
    Text += (PlaceholderPrefix + Statement.slice(Open + 2, Close)).str();
    At = Close + 1;
  }
  StatementPattern P;
  P.Kind = Kind;
  Lexer Lex(SourceLocation(), LO, Text.data(), Text.data(),
            Text.data() + Text.size());
  Token Tok;
  for (Lex.LexFromRawLexer(Tok); Tok.isNot(tok::eof);
       Lex.LexFromRawLexer(Tok)) {
    PatternToken T{Tok.getKind(), spelling(Tok).str()};
    StringRef Spelled(T.Text);
    if (Tok.is(tok::raw_identifier) && Spelled.starts_with(PlaceholderPrefix))
      T.Match = Spelled == (PlaceholderPrefix + "name").str()
                    ? PatternToken::MetadataName
                    : PatternToken::AnyIdentifier;
    else if (tok::isStringLiteral(Tok.getKind()) &&
             Spelled.contains(PlaceholderPrefix))
      T.Match = PatternToken::Strings;
    P.Tokens.push_back(std::move(T));
  }
  if (P.Tokens.empty())
    return std::nullopt;
  return P;
}

std::optional<unsigned> StatementPattern::match(const SourceText &Text,
                                                unsigned Offset) const {
  StringRef Buffer = Text.buffer();
  if (Offset >= Buffer.size())
    return std::nullopt;
  const SourceManager &SM = Text.sourceManager();
  Lexer Lex(SM.getLocForStartOfFile(Text.fileID()), Text.langOptions(),
            Buffer.begin(), Buffer.begin() + Offset, Buffer.end());
  Lex.SetCommentRetentionState(true);
  Token Tok;
  Lex.LexFromRawLexer(Tok);
  unsigned End = Offset;
  for (size_t I = 0; I < Tokens.size(); ++I) {
    const PatternToken &P = Tokens[I];
    StringRef Spelled = spelling(Tok);
    switch (P.Match) {
    case PatternToken::Exact:
      if (Tok.getKind() != P.Kind || Spelled != P.Text)
        return std::nullopt;
      break;
    case PatternToken::AnyIdentifier:
      if (Tok.isNot(tok::raw_identifier))
        return std::nullopt;
      break;
    case PatternToken::MetadataName:
      if (Tok.isNot(tok::raw_identifier) ||
          !Spelled.consume_front(MetadataNamePrefix) || Spelled.empty() ||
          !llvm::all_of(Spelled, [](char C) { return llvm::isDigit(C); }))
        return std::nullopt;
      break;
    case PatternToken::Strings:
      if (!tok::isStringLiteral(Tok.getKind()))
        return std::nullopt;
      // Adjacent literals are one string: take them all.
      for (;;) {
        End = Text.tokenOffset(Tok) + Tok.getLength();
        Lex.LexFromRawLexer(Tok);
        if (!tok::isStringLiteral(Tok.getKind()))
          break;
      }
      continue;
    }
    End = Text.tokenOffset(Tok) + Tok.getLength();
    if (I + 1 < Tokens.size())
      Lex.LexFromRawLexer(Tok);
  }
  return End;
}

/// The statements of Rules with what they do; C++ forms do what their C
/// counterparts do.
static std::vector<std::pair<StatementKind, const std::string *>>
statementsOf(const RuleSet &Rules) {
  return {{StatementKind::Init, &Rules.Init},
          {StatementKind::Start, &Rules.FunctionStart},
          {StatementKind::Start, &Rules.CxxFunctionStart},
          {StatementKind::Metadata, &Rules.Metadata},
          {StatementKind::Category, &Rules.CategoryUpdate},
          {StatementKind::Category, &Rules.CxxCategoryUpdate},
          {StatementKind::End, &Rules.FunctionEnd},
          {StatementKind::Fini, &Rules.Fini}};
}

StripPatterns::StripPatterns(const RuleSet &Rules, const LangOptions &LO) {
  for (auto [Kind, Statement] : statementsOf(Rules))
    if (!Statement->empty())
      if (auto P = StatementPattern::compile(Kind, *Statement, LO))
        Patterns.push_back(std::move(*P));
}

std::vector<std::string> StripPatterns::markers(const RuleSet &Rules) {
  std::vector<std::string> Heads;
  for (const StatementPattern &P : StripPatterns(Rules, LangOptions()).Patterns)
    if (!llvm::is_contained(Heads, P.head()))
      Heads.push_back(P.head().str());
  return Heads;
}

std::optional<StripPatterns::Match>
StripPatterns::match(const SourceText &Text, unsigned Offset) const {
  std::optional<Token> First = Text.rawTokenAt(Offset, /*KeepComments=*/true);
  if (!First || Text.tokenOffset(*First) != Offset)
    return std::nullopt;
  StringRef Head = spelling(*First);
  for (const StatementPattern &P : Patterns)
    if (P.head() == Head)
      if (std::optional<unsigned> End = P.match(Text, Offset))
        return Match{P.kind(), *End};
  return std::nullopt;
}

} // namespace annotate
