//===- SourceText.h - Layout questions about one file ----------*- C++ -*-===//
//
// Edits are planned at AST locations but laid out like a person would: on
// their own line with the surrounding indentation, or inline when the anchor
// shares its line with other code. These helpers answer the layout questions
// from the file's buffer and Clang's raw lexer (which, unlike a text search,
// knows where comments and string literals are).
//
//===----------------------------------------------------------------------===//

#ifndef ANNOTATE_LIB_SOURCETEXT_H
#define ANNOTATE_LIB_SOURCETEXT_H

#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Token.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace annotate {

/// [Begin, End) byte ranges of one file.
using Ranges = std::vector<std::pair<unsigned, unsigned>>;

/// The bytes in both A and B (skipped by two configurations, say), sorted.
Ranges intersectRanges(const Ranges &A, const Ranges &B);
bool inRanges(const Ranges &R, unsigned Offset);

class SourceText {
public:
  SourceText(const clang::SourceManager &SM, const clang::LangOptions &LO,
             clang::FileID FID);

  clang::FileID fileID() const { return FID; }
  llvm::StringRef buffer() const { return Buffer; }
  /// Offset of the file's first character after a UTF-8 byte-order mark
  /// (3 when the file starts with EF BB BF, else 0): text inserted "at the
  /// top" goes here, since a compiler reads the mark only as the file's
  /// first bytes (gcc rejects `#include ...\n<BOM>int f...`).
  unsigned textStart() const;
  const clang::SourceManager &sourceManager() const { return SM; }
  const clang::LangOptions &langOptions() const { return LO; }

  /// The offset of a location spelled directly in this file, if it is one.
  std::optional<unsigned> offset(clang::SourceLocation Loc) const;
  /// Offset just past the token starting at Offset.
  unsigned endOfToken(unsigned Offset) const;

  unsigned lineStart(unsigned Offset) const;
  /// Offset of the '\n' ending the line of Offset (or the buffer size).
  unsigned lineEnd(unsigned Offset) const;
  /// The line break for text inserted at Offset: the one ending its line,
  /// "\r\n" or "\n", so that a file with mixed line endings keeps each
  /// line's; on a last line without one, the file's.
  llvm::StringRef lineBreakAt(unsigned Offset) const;
  /// Leading whitespace of the line containing Offset.
  llvm::StringRef indentOfLine(unsigned Offset) const;
  bool isFirstOnLine(unsigned Offset) const;
  bool sameLine(unsigned A, unsigned B) const;

  /// The next token at or after Offset, comments included when asked.
  std::optional<clang::Token> rawTokenAt(unsigned Offset,
                                         bool KeepComments) const;
  unsigned tokenOffset(const clang::Token &Tok) const;

  enum class Semicolon { Required, IfPresent, None };
  /// [Begin, End) of a statement spelled in this file, with the `;` after
  /// its token range as asked (see stopsBeforeSemicolon). A statement that
  /// is a whole macro call maps to the call. None when the statement starts
  /// or ends inside a macro expansion, or a required `;` is missing.
  std::optional<std::pair<unsigned, unsigned>>
  statementRange(clang::SourceRange TokenRange, Semicolon Take) const;

  /// Where text that should follow the code ending at Offset goes: past a
  /// comment that closes the line, so the comment stays with its code.
  struct AfterCode {
    unsigned Offset;
    /// A `//` comment ends the line: whatever follows needs a new line.
    bool AfterLineComment;
  };
  AfterCode afterTrailingComment(unsigned Offset) const;

private:
  const clang::SourceManager &SM;
  const clang::LangOptions &LO;
  clang::FileID FID;
  llvm::StringRef Buffer;
  /// Most of the file's line breaks are CRLF.
  bool UsesCRLF;
};

} // namespace annotate

#endif
