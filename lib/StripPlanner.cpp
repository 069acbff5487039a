//===- StripPlanner.cpp - The edits that take annotations out again -------===//

#include "StripPlanner.h"
#include "FunctionStripper.h"

#include "clang/AST/Stmt.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace annotate {
namespace {

/// A `#line N "path"` directive alone on the line starting at Offset.
struct LineDirective {
  unsigned Line;
  std::string File;
  /// Past the line break ending it (or the buffer's end).
  unsigned End;
};

std::optional<LineDirective> lineDirectiveAt(const SourceText &Text,
                                             unsigned Offset) {
  StringRef Buffer = Text.buffer();
  std::vector<Token> Tokens;
  for (unsigned At = Offset; Tokens.size() < 5;) {
    auto Tok = Text.rawTokenAt(At, /*KeepComments=*/true);
    if (!Tok || !Text.sameLine(Offset, Text.tokenOffset(*Tok)))
      break;
    Tokens.push_back(*Tok);
    At = Text.tokenOffset(*Tok) + Tok->getLength();
  }
  if (Tokens.size() != 4 || Text.tokenOffset(Tokens[0]) != Offset ||
      Tokens[0].isNot(tok::hash) || Tokens[1].isNot(tok::raw_identifier) ||
      Tokens[1].getRawIdentifier() != "line" ||
      Tokens[2].isNot(tok::numeric_constant) ||
      Tokens[3].isNot(tok::string_literal))
    return std::nullopt;
  unsigned Line = 0;
  if (StringRef(Tokens[2].getLiteralData(), Tokens[2].getLength())
          .getAsInteger(10, Line))
    return std::nullopt;
  StringRef Quoted(Tokens[3].getLiteralData(), Tokens[3].getLength());
  std::string File;
  for (size_t I = 1; I + 1 < Quoted.size(); ++I) {
    if (Quoted[I] == '\\' && I + 2 < Quoted.size())
      ++I;
    File += Quoted[I];
  }
  unsigned LineEnd = Text.lineEnd(Offset);
  unsigned End = LineEnd < Buffer.size() ? LineEnd + 1 : LineEnd;
  return LineDirective{Line, File, End};
}

} // namespace

StripPlanner::StripPlanner(PlanContext &PC, const SourceText &Text,
                           const StripPatterns &Patterns)
    : PC(PC), Text(Text), Patterns(Patterns) {}

StripPlanner::FunctionOutcome
StripPlanner::planFunction(const FunctionDecl &FD) {
  FunctionOutcome Outcome;
  std::vector<Edit> Planned;
  if (!stripFunction(PC, Text, Patterns, FD, Planned)) {
    Outcome.Kept = true;
    const auto *Body = cast<CompoundStmt>(FD.getBody());
    std::optional<unsigned> Begin = Text.offset(Body->getLBracLoc());
    std::optional<unsigned> End = Text.offset(Body->getRBracLoc());
    if (Begin && End)
      Kept.push_back({*Begin, *End + 1});
    return Outcome;
  }
  for (Edit &E : Planned) {
    Outcome.Removed += E.Removes;
    RemovedRanges.push_back({E.Offset, E.Offset + E.Length});
    Edits.add(std::move(E));
  }
  return Outcome;
}

void StripPlanner::planFile(ArrayRef<unsigned> DeclUses,
                            bool RemovedStatements) {
  StringRef Buffer = Text.buffer();
  // annotate names the original by its absolute path; after the include,
  // the one the first line names (after a byte-order mark, which stays).
  unsigned First = Text.textStart();
  std::optional<LineDirective> Top = lineDirectiveAt(Text, First);
  if (Top && (Top->Line != 1 || !llvm::sys::path::is_absolute(Top->File)))
    Top.reset();
  auto Ours = [&](const LineDirective &D) {
    return Top ? D.File == Top->File : llvm::sys::path::is_absolute(D.File);
  };
  if (Top) {
    Edit E{First, Top->End - First, "", 0};
    E.Removes.LineDirectives = 1;
    Edits.add(E);
  }

  const PreprocessorIndex::FileFacts *Facts = PC.PP.facts(Text.fileID());
  if (!Facts)
    return;
  std::string Line = "#include <" + PC.Options.Rules.Include + ">";
  for (const PreprocessorIndex::Include &Inc : Facts->Includes) {
    unsigned Hash = Inc.HashOffset;
    unsigned LineEnd = Text.lineEnd(Hash);
    if (std::max(Text.lineStart(Hash), First) != Hash ||
        Buffer.slice(Hash, LineEnd).rtrim('\r') != Line)
      continue;
    auto Left = [&](unsigned Use) { return !inRanges(RemovedRanges, Use); };
    if (llvm::any_of(Facts->HeaderUses, Left) || llvm::any_of(DeclUses, Left)) {
      Kept.push_back({Hash, LineEnd}); // still needed
      return;
    }
    if (!RemovedStatements)
      return; // a file without annotations keeps every byte
    Edit E{Hash, 0, "", 0};
    E.Removes.Includes = 1;
    if (LineEnd == Buffer.size()) {
      // The last line, no line break after it: "\n#include <h>".
      E.Offset = Hash > 0 ? Text.lineStart(Hash) - 1 : 0;
      if (E.Offset > 0 && Buffer[E.Offset - 1] == '\r')
        --E.Offset;
      E.Length = LineEnd - E.Offset;
    } else {
      E.Length = LineEnd + 1 - Hash;
      if (auto After = lineDirectiveAt(Text, LineEnd + 1); After && Ours(*After)) {
        E.Length = After->End - Hash;
        E.Removes.LineDirectives = 1;
      }
    }
    Edits.add(E);
    return;
  }
}

} // namespace annotate
