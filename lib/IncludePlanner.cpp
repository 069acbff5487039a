//===- IncludePlanner.cpp -------------------------------------------------===//

#include "IncludePlanner.h"

namespace annotate {

/// Offset of the line after the comment block that opens the file, or of
/// its first character (after a byte-order mark). The block ends at a blank
/// line: a comment after one documents what follows it and stays with it.
static unsigned afterLeadingComments(const SourceText &Text) {
  unsigned At = Text.textStart();
  bool SawComment = false;
  while (std::optional<clang::Token> Tok =
             Text.rawTokenAt(At, /*KeepComments=*/true)) {
    unsigned Begin = Text.tokenOffset(*Tok);
    if (!Tok->is(clang::tok::comment) ||
        (SawComment && Text.buffer().slice(At, Begin).count('\n') > 1))
      break;
    At = Begin + Tok->getLength();
    SawComment = true;
  }
  if (!SawComment)
    return Text.textStart();
  unsigned End = Text.lineEnd(At);
  return End < Text.buffer().size() ? End + 1 : End;
}

std::string lineDirective(unsigned Line, llvm::StringRef File,
                          llvm::StringRef Break) {
  std::string Escaped;
  for (char C : File) {
    if (C == '"' || C == '\\')
      Escaped += '\\';
    Escaped += C;
  }
  return "#line " + std::to_string(Line) + " \"" + Escaped + "\"" + Break.str();
}

std::optional<Edit> planInclude(llvm::StringRef Header, const SourceText &Text,
                                const PreprocessorIndex &PP, unsigned FirstEdit,
                                bool IncludeGuarded,
                                llvm::StringRef LineDirective) {
  std::string Angled = "<" + Header.str() + ">";
  std::string Quoted = "\"" + Header.str() + "\"";
  const PreprocessorIndex::FileFacts *Facts = PP.facts(Text.fileID());
  std::optional<unsigned> After;
  if (Facts) {
    for (const auto &Inc : Facts->Includes) {
      if (Inc.Spelled == Angled || Inc.Spelled == Quoted)
        return std::nullopt;
      unsigned Allowed =
          IncludeGuarded && Inc.HashOffset > Facts->FirstConditionalOffset;
      if (Inc.ConditionalDepth <= Allowed)
        After = Inc.NameEndOffset;
    }
  }
  std::string Line = "#include " + Angled;
  unsigned Offset;
  if (After && *After < FirstEdit) {
    unsigned End = Text.lineEnd(*After);
    if (End == Text.buffer().size())
      return Edit{End, 0, Text.lineBreakAt(End).str() + Line,
                  EditRank::Statement};
    Offset = End + 1;
  } else {
    Offset = afterLeadingComments(Text);
  }
  // The line break of the line it follows (the first line's at the top).
  llvm::StringRef Break =
      Text.lineBreakAt(Offset > Text.textStart() ? Offset - 1 : Offset);
  Line += Break;
  if (!LineDirective.empty())
    Line += lineDirective(Text.buffer().take_front(Offset).count('\n') + 1,
                          LineDirective, Break);
  return Edit{Offset, 0, Line, EditRank::Statement};
}

} // namespace annotate
