//===- Edits.cpp - Merging and applying edits -----------------------------===//

#include "annotate/Edits.h"

#include "llvm/ADT/ArrayRef.h"

#include <algorithm>
#include <map>

namespace annotate {

Removal &Removal::operator+=(const Removal &O) {
  Statements += O.Statements;
  Returns += O.Returns;
  Braces += O.Braces;
  Includes += O.Includes;
  LineDirectives += O.LineDirectives;
  return *this;
}

std::string Removal::str() const {
  std::string Out;
  auto Add = [&Out](unsigned N, const char *One, const char *Many) {
    if (N)
      Out += (Out.empty() ? "" : ", ") + std::to_string(N) + " " +
             (N == 1 ? One : Many);
  };
  Add(Statements, "statement", "statements");
  Add(Returns, "value return", "value returns");
  Add(Braces, "pair of braces", "pairs of braces");
  Add(Includes, "include", "includes");
  Add(LineDirectives, "#line directive", "#line directives");
  return Out;
}

void FileEdits::append(const FileEdits &Other) {
  Pending.insert(Pending.end(), Other.Pending.begin(), Other.Pending.end());
}

/// Rule 4 over the edits of one OnceKey, in the order planned: the place
/// (offset, and text before the tail) of the first in the file, the tail of
/// the lowest Preference.
static Edit keepOnce(llvm::ArrayRef<const Edit *> Group) {
  const Edit *Place = Group.front(), *Tail = Group.front();
  for (const Edit *E : Group) {
    if (E->Offset < Place->Offset)
      Place = E;
    if (E->Preference < Tail->Preference)
      Tail = E;
  }
  llvm::StringRef Head = llvm::StringRef(Place->Text).take_front(Place->TailAt);
  llvm::StringRef Chosen = llvm::StringRef(Tail->Text).drop_front(
      std::min(Tail->TailAt, Tail->Text.size()));
  Edit Kept = *Place;
  Kept.Text = Head.str() + Chosen.str();
  Kept.TailAt = Head.size();
  Kept.Preference = Tail->Preference;
  return Kept;
}

FileEdits::Merged FileEdits::merge() const {
  std::map<llvm::StringRef, std::vector<const Edit *>> Once;
  for (const Edit &E : Pending)
    if (!E.OnceKey.empty())
      Once[E.OnceKey].push_back(&E);
  // The kept edit arrives where the first of its key did: a START taken
  // from the second configuration still precedes the END the first one
  // planned at the same offset (`{}`).
  std::vector<Edit> Sorted;
  for (const Edit &E : Pending) {
    if (E.OnceKey.empty()) {
      Sorted.push_back(E);
    } else if (auto It = Once.find(E.OnceKey); It != Once.end()) {
      Sorted.push_back(keepOnce(It->second));
      Once.erase(It);
    }
  }
  // Stable order: by offset, insertions before a replacement starting at the
  // same offset, then by rank, then by arrival.
  std::stable_sort(Sorted.begin(), Sorted.end(),
                   [](const Edit &A, const Edit &B) {
                     if (A.Offset != B.Offset)
                       return A.Offset < B.Offset;
                     if ((A.Length == 0) != (B.Length == 0))
                       return A.Length == 0;
                     return A.Rank < B.Rank;
                   });
  std::vector<Edit> Unique;
  for (Edit &E : Sorted)
    if (std::find(Unique.begin(), Unique.end(), E) == Unique.end())
      Unique.push_back(std::move(E));

  // An edit conflicts with a replacement when it starts strictly inside it,
  // or when two replacements share bytes.
  std::vector<bool> Conflicting(Unique.size(), false);
  for (size_t I = 0; I < Unique.size(); ++I) {
    const Edit &R = Unique[I];
    if (R.Length == 0)
      continue;
    unsigned End = R.Offset + R.Length;
    for (size_t J = 0; J < Unique.size(); ++J) {
      if (I == J)
        continue;
      const Edit &O = Unique[J];
      bool Inside = O.Offset > R.Offset && O.Offset < End;
      bool SharesBytes = O.Length > 0 && O.Offset < End &&
                         R.Offset < O.Offset + O.Length;
      if (Inside || SharesBytes)
        Conflicting[I] = Conflicting[J] = true;
    }
  }
  Merged Result;
  for (size_t I = 0; I < Unique.size(); ++I)
    (Conflicting[I] ? Result.Conflicts : Result.Edits).push_back(Unique[I]);
  return Result;
}

std::string applyEdits(llvm::StringRef Original,
                       const std::vector<Edit> &Edits) {
  std::string Out;
  size_t Extra = 0;
  for (const Edit &E : Edits)
    Extra += E.Text.size();
  Out.reserve(Original.size() + Extra);
  unsigned At = 0;
  for (const Edit &E : Edits) {
    Out.append(Original.data() + At, E.Offset - At);
    Out += E.Text;
    At = E.Offset + E.Length;
  }
  Out.append(Original.data() + At, Original.size() - At);
  return Out;
}

} // namespace annotate
