//===- SkippedExits.cpp ---------------------------------------------------===//

#include "SkippedExits.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/StringSet.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace annotate {

/// The directive keyword of a line that is a directive ("ifdef"), or "".
static StringRef directiveKeyword(StringRef Line) {
  Line = Line.ltrim(" \t");
  if (!Line.consume_front("#"))
    return "";
  Line = Line.ltrim(" \t");
  return Line.take_while([](char C) { return isalpha(C); });
}

Diagnostic uncompiledExitWarning(const SkippedExit &E) {
  Diagnostic D;
  D.File = E.File;
  D.Line = E.Line;
  D.Column = E.Column;
  D.Message = E.Token + " in a branch not compiled here (" + E.Condition +
              "); its END is missing (the runtime's cleanup closes the span; "
              "pass --variant to plan it)";
  return D;
}

std::string blockCondition(StringRef Buffer, unsigned Offset) {
  // Walk back line by line to the directive that opens the branch holding
  // Offset, over nested conditionals; for an #else, on to its #if.
  std::string Branch;
  unsigned Depth = 0;
  size_t End = Buffer.rfind('\n', Offset);
  while (End != StringRef::npos && End > 0) {
    size_t Begin = Buffer.rfind('\n', End - 1);
    Begin = Begin == StringRef::npos ? 0 : Begin + 1;
    StringRef Line = Buffer.slice(Begin, End).trim();
    StringRef K = directiveKeyword(Line);
    if (K == "endif") {
      ++Depth;
    } else if (K == "if" || K == "ifdef" || K == "ifndef") {
      if (Depth == 0)
        return Branch.empty() ? Line.str() : Branch + " of " + Line.str();
      --Depth;
    } else if (Depth == 0 && Branch.empty() &&
               (K == "else" || K.starts_with("elif"))) {
      if (K != "else")
        return Line.str();
      Branch = Line.str();
    }
    if (Begin == 0)
      break;
    End = Begin - 1;
  }
  return Branch.empty() ? "#if" : Branch;
}

/// The labels of the statements in S.
static void collectLabels(const Stmt *S, llvm::StringSet<> &Labels) {
  if (isa<LambdaExpr, BlockExpr>(S))
    return;
  if (const auto *L = dyn_cast<LabelStmt>(S))
    Labels.insert(L->getName());
  for (const Stmt *Child : S->children())
    if (Child)
      collectLabels(Child, Labels);
}

/// The labels written in the skipped block [Begin, End): an identifier
/// first on its line followed by a single `:` (not `::`, not `case X:` or
/// `default:`).
static void lexLabels(const SourceText &Text, unsigned Begin, unsigned End,
                      llvm::StringSet<> &Labels) {
  StringRef Buffer = Text.buffer();
  Lexer Lex(Text.sourceManager().getLocForStartOfFile(Text.fileID()),
            Text.langOptions(), Buffer.begin(),
            Buffer.begin() + Text.lineStart(Begin), Buffer.end());
  Token Tok;
  for (Lex.LexFromRawLexer(Tok);
       Tok.isNot(tok::eof) && Text.tokenOffset(Tok) < End;
       Lex.LexFromRawLexer(Tok)) {
    if (!Tok.isAtStartOfLine() || Tok.isNot(tok::raw_identifier))
      continue;
    StringRef Name = Tok.getRawIdentifier();
    if (Name == "default" || Name == "public" || Name == "private" ||
        Name == "protected")
      continue;
    std::optional<Token> Next = Text.rawTokenAt(
        Text.tokenOffset(Tok) + Tok.getLength(), /*KeepComments=*/false);
    if (Next && Next->is(tok::colon))
      Labels.insert(Name);
  }
}

std::vector<SkippedExit> skippedExits(const FunctionDecl &FD,
                                      const SourceText &Text,
                                      const PreprocessorIndex &PP,
                                      const RuleSet &Rules, StringRef Path) {
  std::vector<SkippedExit> Found;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD.getBody());
  const PreprocessorIndex::FileFacts *Facts = PP.facts(Text.fileID());
  if (!Body || !Facts)
    return Found;
  std::optional<unsigned> LBrace = Text.offset(Body->getLBracLoc());
  std::optional<unsigned> RBrace = Text.offset(Body->getRBracLoc());
  if (!LBrace || !RBrace)
    return Found;
  const SourceManager &SM = Text.sourceManager();
  StringRef Buffer = Text.buffer();
  auto IsCall = [&](StringRef Name) {
    return llvm::is_contained(Rules.NoReturnFunctions, Name) ||
           llvm::is_contained(Rules.FiniBeforeCalls, Name);
  };
  // A goto to a label of the function leaves nothing (it cannot leave the
  // function at all): its labels, compiled or in skipped blocks.
  llvm::StringSet<> Labels;
  collectLabels(Body, Labels);
  for (const auto &[Begin, End] : Facts->Skipped)
    if (Begin > *LBrace && Begin < *RBrace)
      lexLabels(Text, Begin, End, Labels);
  for (const auto &[Begin, End] : Facts->Skipped) {
    if (Begin <= *LBrace || Begin >= *RBrace)
      continue;
    Lexer Lex(SM.getLocForStartOfFile(Text.fileID()), Text.langOptions(),
              Buffer.begin(), Buffer.begin() + Text.lineStart(Begin),
              Buffer.end());
    Token Tok;
    bool InDirective = false;
    for (Lex.LexFromRawLexer(Tok);
         Tok.isNot(tok::eof) && Text.tokenOffset(Tok) < End;
         Lex.LexFromRawLexer(Tok)) {
      // Directive lines (the block's own #if, nested ones) are not code.
      if (Tok.isAtStartOfLine())
        InDirective = Tok.is(tok::hash);
      if (InDirective || Tok.isNot(tok::raw_identifier))
        continue;
      StringRef Name = Tok.getRawIdentifier();
      bool Exit = Name == "return" || Name == "goto";
      if (!Exit && IsCall(Name)) {
        std::optional<Token> Next =
            Text.rawTokenAt(Text.tokenOffset(Tok) + Tok.getLength(),
                            /*KeepComments=*/false);
        Exit = Next && Next->is(tok::l_paren);
      }
      if (Name == "goto") {
        std::optional<Token> Target =
            Text.rawTokenAt(Text.tokenOffset(Tok) + Tok.getLength(),
                            /*KeepComments=*/false);
        // `goto *p;` (GNU computed goto) jumps to a label of the function.
        if (Target && (Target->is(tok::star) ||
                       (Target->is(tok::raw_identifier) &&
                        Labels.contains(Target->getRawIdentifier()))))
          continue;
      }
      if (!Exit)
        continue;
      SkippedExit E;
      E.Path = Path.str();
      E.Offset = Text.tokenOffset(Tok);
      PresumedLoc P = SM.getPresumedLoc(Tok.getLocation());
      if (P.isValid()) {
        E.File = P.getFilename();
        E.Line = P.getLine();
        E.Column = P.getColumn();
      }
      E.Token = Name.str();
      E.Condition = blockCondition(Buffer, E.Offset);
      E.Function = FD.getQualifiedNameAsString();
      Found.push_back(std::move(E));
    }
  }
  return Found;
}

} // namespace annotate
