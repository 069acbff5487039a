//===- ConditionalCalls.cpp -----------------------------------------------===//

#include "ConditionalCalls.h"

#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace annotate {

/// Whether [Begin, End) of the file holds a call of one of Names: the name
/// as an identifier token followed by `(`. Comments are not code.
static bool callsIn(const SourceText &Text, unsigned Begin, unsigned End,
                    llvm::ArrayRef<std::string> Names) {
  bool AfterName = false;
  for (unsigned At = Begin; At < End;) {
    std::optional<Token> Tok = Text.rawTokenAt(At, /*KeepComments=*/false);
    if (!Tok || Text.tokenOffset(*Tok) >= End)
      return false;
    if (AfterName && Tok->is(tok::l_paren))
      return true;
    AfterName = Tok->is(tok::raw_identifier) &&
                llvm::is_contained(Names, Tok->getRawIdentifier());
    At = Text.tokenOffset(*Tok) + Tok->getLength();
  }
  return false;
}

std::vector<std::pair<unsigned, unsigned>>
conditionalsCalling(const CompoundStmt &Body, const SourceText &Text,
                    const PreprocessorIndex &PP,
                    llvm::ArrayRef<std::string> Names) {
  std::vector<std::pair<unsigned, unsigned>> Found;
  const PreprocessorIndex::FileFacts *Facts = PP.facts(Text.fileID());
  std::optional<unsigned> LBrace = Text.offset(Body.getLBracLoc());
  std::optional<unsigned> RBrace = Text.offset(Body.getRBracLoc());
  if (!Facts || !LBrace || !RBrace || Names.empty())
    return Found;
  const SourceManager &SM = Text.sourceManager();
  // The top-level statements of this configuration, as spelled in the file.
  std::vector<std::pair<unsigned, unsigned>> Statements;
  for (const Stmt *S : Body.body()) {
    std::optional<unsigned> B = Text.offset(SM.getExpansionLoc(S->getBeginLoc()));
    CharSourceRange R = SM.getExpansionRange(S->getEndLoc());
    std::optional<unsigned> E = Text.offset(R.getEnd());
    if (B && E)
      Statements.push_back({*B, Text.endOfToken(*E)});
  }
  auto InsideStatement = [&](unsigned Offset) {
    return llvm::any_of(Statements, [&](const auto &S) {
      return S.first < Offset && Offset < S.second;
    });
  };
  auto InBody = [&](const std::pair<unsigned, unsigned> &C) {
    return C.first > *LBrace && C.second <= *RBrace;
  };
  for (const auto &C : Facts->Conditionals) {
    if (!InBody(C) || InsideStatement(C.first) || InsideStatement(C.second))
      continue;
    bool Nested = llvm::any_of(Facts->Conditionals, [&](const auto &O) {
      return InBody(O) && O != C && O.first <= C.first && C.second <= O.second;
    });
    if (!Nested && callsIn(Text, C.first, C.second, Names))
      Found.push_back(C);
  }
  llvm::sort(Found);
  return Found;
}

} // namespace annotate
