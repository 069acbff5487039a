//===- Braces.cpp - Making a braceless body a block, safely ---------------===//

#include "Braces.h"
#include "BodyFacts.h"

#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace annotate {
namespace {

llvm::Error refuse(const llvm::Twine &Why) {
  return llvm::createStringError(std::errc::operation_not_permitted,
                                 Why.str().c_str());
}

/// The token after which `{` goes, and the keyword whose line gives the
/// indentation of a `}` on its own line.
struct Anchor {
  SourceLocation BeforeBody;
  SourceLocation Keyword;
};

Anchor anchorFor(const Stmt *Slot, const Stmt *Owner) {
  if (const auto *If = dyn_cast<IfStmt>(Owner)) {
    if (If->getElse() == Slot)
      return {If->getElseLoc(), If->getElseLoc()};
    return {If->getRParenLoc(), If->getIfLoc()};
  }
  if (const auto *For = dyn_cast<ForStmt>(Owner))
    return {For->getRParenLoc(), For->getForLoc()};
  if (const auto *While = dyn_cast<WhileStmt>(Owner))
    return {While->getRParenLoc(), While->getWhileLoc()};
  if (const auto *Do = dyn_cast<DoStmt>(Owner))
    return {Do->getDoLoc(), Do->getDoLoc()};
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(Owner))
    return {Range->getRParenLoc(), Range->getForLoc()};
  return {};
}

} // namespace

SourceLocation tokenBeforeBody(const Stmt *Slot, const Stmt *Owner) {
  return anchorFor(Slot, Owner).BeforeBody;
}

llvm::Expected<BracePair> planBraces(const Stmt *Slot, const Stmt *Owner,
                                     const SourceText &Text,
                                     const PreprocessorIndex &PP,
                                     unsigned Depth, bool KeepLines) {
  Anchor A = anchorFor(Slot, Owner);
  // Rule 1: the controlling statement itself must be written in the file.
  std::optional<unsigned> BeforeBody = Text.offset(A.BeforeBody);
  std::optional<unsigned> Keyword = Text.offset(A.Keyword);
  if (!BeforeBody || !Keyword)
    return refuse("the controlling statement comes from a macro expansion");

  // Rule 3: a body that is a whole macro call maps to its call in the file.
  // A macro call's `;` is taken even when the expansion is a block: the
  // `;` then was a null statement that could not precede an `else`.
  auto Range = Text.statementRange(
      Slot->getSourceRange(),
      stopsBeforeSemicolon(Slot)      ? SourceText::Semicolon::Required
      : Slot->getBeginLoc().isMacroID() ? SourceText::Semicolon::IfPresent
                                        : SourceText::Semicolon::None);
  if (!Range)
    return refuse("the body is part of a macro expansion");
  auto [BodyBegin, End] = *Range;

  // Rule 5.
  unsigned OpenAt = Text.endOfToken(*BeforeBody);
  if (PP.hasDirectiveBetween(Text.fileID(), OpenAt, End))
    return refuse("a preprocessor directive lies inside the braceless body");

  // Rule 6.
  SourceText::AfterCode After =
      KeepLines ? SourceText::AfterCode{End, false} : Text.afterTrailingComment(End);
  bool OneLine = KeepLines ||
                 (Text.sameLine(OpenAt, BodyBegin) && !After.AfterLineComment);
  std::string CloseText =
      OneLine ? std::string(" }")
              : (Text.lineBreakAt(After.Offset) + Text.indentOfLine(*Keyword) +
                 "}")
                    .str();
  // Rule 7.
  return BracePair{{OpenAt, 0, (" { " + AddedBraceMarker).str(),
                    EditRank::openBrace(Depth)},
                   {After.Offset, 0, CloseText, EditRank::closeBrace(Depth)}};
}

} // namespace annotate
