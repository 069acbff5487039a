//===- SourceText.cpp - Layout questions about one file -------------------===//

#include "SourceText.h"

#include "clang/Lex/Lexer.h"

using namespace clang;

namespace annotate {

Ranges intersectRanges(const Ranges &A, const Ranges &B) {
  Ranges Both;
  for (const auto &[ABegin, AEnd] : A)
    for (const auto &[BBegin, BEnd] : B)
      if (std::max(ABegin, BBegin) < std::min(AEnd, BEnd))
        Both.push_back({std::max(ABegin, BBegin), std::min(AEnd, BEnd)});
  llvm::sort(Both);
  return Both;
}

bool inRanges(const Ranges &R, unsigned Offset) {
  for (const auto &[Begin, End] : R)
    if (Begin <= Offset && Offset < End)
      return true;
  return false;
}

/// As clang-format derives a file's line ending
/// (WhitespaceManager::inputUsesCRLF, LineEnding: DeriveLF): CRLF when more
/// than half of the line breaks are, else LF.
static bool usesCRLF(StringRef Text) {
  return Text.count('\r') * 2 > Text.count('\n');
}

SourceText::SourceText(const SourceManager &SM, const LangOptions &LO,
                       FileID FID)
    : SM(SM), LO(LO), FID(FID), Buffer(SM.getBufferData(FID)),
      UsesCRLF(usesCRLF(Buffer)) {}

std::optional<unsigned> SourceText::offset(SourceLocation Loc) const {
  if (Loc.isInvalid() || !Loc.isFileID())
    return std::nullopt;
  auto [LocFID, Offset] = SM.getDecomposedLoc(Loc);
  if (LocFID != FID)
    return std::nullopt;
  return Offset;
}

unsigned SourceText::endOfToken(unsigned Offset) const {
  SourceLocation Loc = SM.getComposedLoc(FID, Offset);
  return Offset + Lexer::MeasureTokenLength(Loc, SM, LO);
}

unsigned SourceText::lineStart(unsigned Offset) const {
  // rfind looks at the characters before Offset.
  size_t NL = Buffer.rfind('\n', Offset);
  return NL == StringRef::npos ? 0 : NL + 1;
}

unsigned SourceText::lineEnd(unsigned Offset) const {
  size_t NL = Buffer.find('\n', Offset);
  return NL == StringRef::npos ? Buffer.size() : NL;
}

StringRef SourceText::lineBreakAt(unsigned Offset) const {
  unsigned End = lineEnd(Offset);
  if (End == Buffer.size())
    return UsesCRLF ? "\r\n" : "\n";
  return End > 0 && Buffer[End - 1] == '\r' ? "\r\n" : "\n";
}

StringRef SourceText::indentOfLine(unsigned Offset) const {
  unsigned Begin = lineStart(Offset);
  unsigned End = Begin;
  while (End < Buffer.size() && (Buffer[End] == ' ' || Buffer[End] == '\t'))
    ++End;
  return Buffer.slice(Begin, End);
}

bool SourceText::isFirstOnLine(unsigned Offset) const {
  return Buffer.slice(lineStart(Offset), Offset).find_first_not_of(" \t\f\v\r") ==
         StringRef::npos;
}

bool SourceText::sameLine(unsigned A, unsigned B) const {
  if (A > B)
    std::swap(A, B);
  return Buffer.slice(A, B).find('\n') == StringRef::npos;
}

unsigned SourceText::textStart() const {
  return Buffer.starts_with("\xEF\xBB\xBF") ? 3 : 0;
}

std::optional<Token> SourceText::rawTokenAt(unsigned Offset,
                                            bool KeepComments) const {
  if (Offset >= Buffer.size())
    return std::nullopt;
  Lexer Lex(SM.getLocForStartOfFile(FID), LO, Buffer.begin(),
            Buffer.begin() + Offset, Buffer.end());
  Lex.SetCommentRetentionState(KeepComments);
  Token Tok;
  Lex.LexFromRawLexer(Tok);
  if (Tok.is(tok::eof))
    return std::nullopt;
  return Tok;
}

unsigned SourceText::tokenOffset(const Token &Tok) const {
  return SM.getFileOffset(Tok.getLocation());
}

std::optional<std::pair<unsigned, unsigned>>
SourceText::statementRange(SourceRange TokenRange, Semicolon Take) const {
  CharSourceRange Range = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(TokenRange), SM, LO);
  if (Range.isInvalid())
    return std::nullopt;
  std::optional<unsigned> Begin = offset(Range.getBegin());
  std::optional<unsigned> End = offset(Range.getEnd());
  if (!Begin || !End)
    return std::nullopt;
  if (Take != Semicolon::None) {
    std::optional<Token> Next = rawTokenAt(*End, /*KeepComments=*/false);
    if (Next && Next->is(tok::semi))
      End = tokenOffset(*Next) + 1;
    else if (Take == Semicolon::Required)
      return std::nullopt;
  }
  return std::make_pair(*Begin, *End);
}

SourceText::AfterCode SourceText::afterTrailingComment(unsigned Offset) const {
  std::optional<Token> Next = rawTokenAt(Offset, /*KeepComments=*/true);
  if (!Next || !Next->is(tok::comment))
    return {Offset, false};
  unsigned CommentBegin = tokenOffset(*Next);
  if (!sameLine(Offset, CommentBegin))
    return {Offset, false};
  unsigned CommentEnd = CommentBegin + Next->getLength();
  // Only a comment that closes the line travels with the code before it.
  std::optional<Token> After = rawTokenAt(CommentEnd, /*KeepComments=*/true);
  if (After && sameLine(CommentEnd, tokenOffset(*After)))
    return {Offset, false};
  bool LineComment = Buffer.substr(CommentBegin).starts_with("//");
  // A `//` comment's token stops before the newline; a block comment ends
  // at `*/`.
  return {CommentEnd, LineComment};
}

} // namespace annotate
