//===- Diff.cpp - Unified diffs straight from the edits -------------------===//
//
// The edits already say which lines change: each edit touches the original
// lines from its offset to its end; edits whose lines (with context) touch
// are one hunk, whose new lines are the original lines of the hunk with its
// edits applied. Only inside a hunk (a few dozen lines) is a line LCS run,
// to print unchanged lines as context.
//
//===----------------------------------------------------------------------===//

#include "annotate/Output.h"

#include <algorithm>

namespace annotate {
namespace {

constexpr unsigned Context = 3;

/// Offsets where each line starts; the last entry is the text size.
std::vector<unsigned> lineStarts(llvm::StringRef Text) {
  std::vector<unsigned> Starts{0};
  for (unsigned I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n' && I + 1 < Text.size())
      Starts.push_back(I + 1);
  Starts.push_back(Text.size());
  return Starts;
}

unsigned lineOf(const std::vector<unsigned> &Starts, unsigned Offset) {
  auto It = std::upper_bound(Starts.begin(), Starts.end() - 1, Offset);
  return It - Starts.begin() - 1;
}

/// Lines of Text, each with its '\n' (the last may lack one).
std::vector<llvm::StringRef> splitLines(llvm::StringRef Text) {
  std::vector<llvm::StringRef> Lines;
  while (!Text.empty()) {
    size_t NL = Text.find('\n');
    size_t Len = NL == llvm::StringRef::npos ? Text.size() : NL + 1;
    Lines.push_back(Text.take_front(Len));
    Text = Text.drop_front(Len);
  }
  return Lines;
}

void appendLine(std::string &Out, char Prefix, llvm::StringRef Line) {
  Out += Prefix;
  Out += Line.str();
  if (!Line.ends_with("\n"))
    Out += "\n\\ No newline at end of file\n";
}

struct Op {
  char Kind; // ' ', '-', '+'
  llvm::StringRef Line;
};

/// Old -> New line by line, unchanged lines (by LCS) as context.
std::vector<Op> lineOps(const std::vector<llvm::StringRef> &Old,
                        const std::vector<llvm::StringRef> &New) {
  size_t N = Old.size(), M = New.size();
  std::vector<std::vector<unsigned>> L(N + 1, std::vector<unsigned>(M + 1, 0));
  for (size_t I = N; I-- > 0;)
    for (size_t J = M; J-- > 0;)
      L[I][J] = Old[I] == New[J] ? L[I + 1][J + 1] + 1
                                 : std::max(L[I + 1][J], L[I][J + 1]);
  std::vector<Op> Ops;
  size_t I = 0, J = 0;
  while (I < N || J < M) {
    if (I < N && J < M && Old[I] == New[J]) {
      Ops.push_back({' ', Old[I++]});
      ++J;
    } else if (J < M && (I == N || L[I][J + 1] > L[I + 1][J])) {
      Ops.push_back({'+', New[J++]});
    } else {
      Ops.push_back({'-', Old[I++]});
    }
  }
  return Ops;
}

} // namespace

std::string unifiedDiff(llvm::StringRef Label, llvm::StringRef Original,
                        const std::vector<Edit> &Edits) {
  if (Edits.empty())
    return "";
  std::vector<unsigned> Starts = lineStarts(Original);
  unsigned LineCount = Starts.size() - 1;
  // Group edits into hunks: [FirstLine, LastLine] of original lines.
  struct Hunk {
    unsigned First, Last;
    std::vector<Edit> Edits;
  };
  std::vector<Hunk> Hunks;
  for (const Edit &E : Edits) {
    unsigned First = lineOf(Starts, E.Offset);
    unsigned Last = lineOf(Starts, E.Offset + E.Length);
    unsigned From = First >= Context ? First - Context : 0;
    unsigned To = std::min(Last + Context, LineCount ? LineCount - 1 : 0);
    if (!Hunks.empty() && From <= Hunks.back().Last + 1) {
      Hunks.back().Last = std::max(Hunks.back().Last, To);
      Hunks.back().Edits.push_back(E);
    } else {
      Hunks.push_back({From, To, {E}});
    }
  }
  std::string Out = "--- a/" + Label.str() + "\n+++ b/" + Label.str() + "\n";
  int Shift = 0;
  for (const Hunk &H : Hunks) {
    unsigned Begin = Starts[H.First];
    unsigned End = Starts[std::min<unsigned>(H.Last + 1, LineCount)];
    llvm::StringRef Old = Original.slice(Begin, End);
    std::vector<Edit> Local;
    for (const Edit &E : H.Edits)
      Local.push_back({E.Offset - Begin, E.Length, E.Text, E.Rank});
    std::string New = applyEdits(Old, Local);
    std::vector<Op> Ops = lineOps(splitLines(Old), splitLines(New));
    // An insertion between lines touches neither: keep exactly Context
    // unchanged lines on each side.
    size_t Lead = 0, Trail = 0;
    while (Lead < Ops.size() && Ops[Lead].Kind == ' ')
      ++Lead;
    while (Trail < Ops.size() - Lead && Ops[Ops.size() - 1 - Trail].Kind == ' ')
      ++Trail;
    size_t From = Lead > Context ? Lead - Context : 0;
    size_t To = Ops.size() - (Trail > Context ? Trail - Context : 0);
    unsigned OldLines = 0, NewLines = 0;
    for (size_t K = From; K < To; ++K) {
      OldLines += Ops[K].Kind != '+';
      NewLines += Ops[K].Kind != '-';
    }
    unsigned FirstOld = H.First + From;
    Out += "@@ -" + std::to_string(FirstOld + 1) + "," +
           std::to_string(OldLines) + " +" +
           std::to_string(FirstOld + 1 + Shift) + "," +
           std::to_string(NewLines) + " @@\n";
    for (size_t K = From; K < To; ++K)
      appendLine(Out, Ops[K].Kind, Ops[K].Line);
    Shift += static_cast<int>(NewLines) - static_cast<int>(OldLines);
  }
  return Out;
}

} // namespace annotate
