//===- Candidate.cpp - One configuration dftracer-tune runs ---------------===//

#include "Candidate.h"

#include <cstdlib>

namespace dfttune {

namespace {

bool isOption(const std::string &W) { return W.size() > 1 && W[0] == '-'; }

/// "--size" of "--size=4k"; "" when W has no '='.
std::string equalsName(const std::string &W) {
  size_t Eq = W.find('=');
  return isOption(W) && Eq != std::string::npos ? W.substr(0, Eq) : "";
}

/// Where ARGS's words go in Cmd (Cmd[0] is the program): Pos of the
/// value replaced, or npos to append. Also names what was replaced.
struct Edit {
  size_t Pos;
  std::string Old, New;
};

std::vector<Edit> planEdits(const std::vector<std::string> &Cmd,
                            const std::vector<std::string> &Words,
                            std::vector<std::string> &Appended) {
  std::vector<Edit> Edits;
  for (size_t I = 0; I < Words.size(); ++I) {
    const std::string &W = Words[I];
    std::string Name = equalsName(W);
    if (!Name.empty()) { // --opt=VALUE
      bool Found = false;
      for (size_t J = 1; J < Cmd.size() && !Found; ++J)
        if (equalsName(Cmd[J]) == Name) {
          Edits.push_back({J, Cmd[J], W});
          Found = true;
        }
      if (!Found)
        Appended.push_back(W);
      continue;
    }
    bool HasValue =
        isOption(W) && I + 1 < Words.size() && !isOption(Words[I + 1]);
    if (HasValue) { // -t 1m: the command's -t X gets 1m
      bool Found = false;
      for (size_t J = 1; J + 1 < Cmd.size() && !Found; ++J)
        if (Cmd[J] == W) {
          Edits.push_back({J + 1, Cmd[J + 1], Words[I + 1]});
          Found = true;
        }
      if (!Found) {
        Appended.push_back(W);
        Appended.push_back(Words[I + 1]);
      }
      ++I;
      continue;
    }
    Appended.push_back(W);
  }
  return Edits;
}

} // namespace

std::string Candidate::setting() const {
  switch (K) {
  case Tune:
    return "DFTRACER_TUNE=" + Value;
  case Env:
    return "env " + Value;
  case Args:
    return "args " + Value;
  case Baseline:
    break;
  }
  return "";
}

const char *Candidate::kindName() const {
  switch (K) {
  case Tune:
    return "tune";
  case Env:
    return "env";
  case Args:
    return "args";
  case Baseline:
    break;
  }
  return "baseline";
}

std::vector<std::string>
Candidate::command(const std::vector<std::string> &Base,
                   const std::string &RunDir) const {
  std::vector<std::string> Cmd = Base;
  if (K == Args) {
    std::vector<std::string> Appended;
    for (const Edit &E : planEdits(Base, ArgWords, Appended))
      Cmd[E.Pos] = E.New;
    Cmd.insert(Cmd.end(), Appended.begin(), Appended.end());
  }
  for (std::string &W : Cmd)
    W = substituteRun(W, RunDir);
  return Cmd;
}

std::vector<std::pair<std::string, std::string>>
Candidate::environment() const {
  if (K == Tune)
    return {{"DFTRACER_TUNE", Value}};
  if (K == Env) {
    size_t Eq = Value.find('=');
    return {{Value.substr(0, Eq), Value.substr(Eq + 1)}};
  }
  return {};
}

void Candidate::describeChange(const std::vector<std::string> &Base) {
  switch (K) {
  case Baseline:
    Change = "-";
    return;
  case Tune:
    Change = "DFTRACER_TUNE=" + Value;
    return;
  case Env: {
    size_t Eq = Value.find('=');
    const char *Was = std::getenv(Value.substr(0, Eq).c_str());
    Change = Value.substr(0, Eq) + " " + (Was ? Was : "(unset)") + " -> " +
             Value.substr(Eq + 1);
    return;
  }
  case Args: {
    std::vector<std::string> Appended;
    Change.clear();
    for (const Edit &E : planEdits(Base, ArgWords, Appended)) {
      std::string Name = equalsName(E.New);
      if (!Name.empty())
        Change += (Change.empty() ? "" : ", ") + Name + " " +
                  E.Old.substr(Name.size() + 1) + " -> " +
                  E.New.substr(Name.size() + 1);
      else
        Change += (Change.empty() ? "" : ", ") + Base[E.Pos - 1] + " " + E.Old +
                  " -> " + E.New;
    }
    if (!Appended.empty()) {
      std::string A;
      for (const std::string &W : Appended)
        A += (A.empty() ? "" : " ") + W;
      Change += (Change.empty() ? "" : ", ") + std::string("+ ") + A;
    }
    if (Change.empty())
      Change = "(arguments unchanged)";
    return;
  }
  }
}

bool splitWords(const std::string &Text, std::vector<std::string> &Words,
                std::string &Error) {
  Words.clear();
  std::string Cur;
  bool InWord = false;
  char Quote = 0;
  for (char C : Text) {
    if (Quote) {
      if (C == Quote)
        Quote = 0;
      else
        Cur += C;
      continue;
    }
    if (C == '\'' || C == '"') {
      Quote = C;
      InWord = true;
    } else if (C == ' ' || C == '\t' || C == '\n') {
      if (InWord)
        Words.push_back(Cur);
      Cur.clear();
      InWord = false;
    } else {
      Cur += C;
      InWord = true;
    }
  }
  if (Quote) {
    Error = "unclosed " + std::string(1, Quote) + " in '" + Text + "'";
    return false;
  }
  if (InWord)
    Words.push_back(Cur);
  return true;
}

std::string substituteRun(std::string S, const std::string &RunDir) {
  for (size_t At = S.find("{run}"); At != std::string::npos;
       At = S.find("{run}", At + RunDir.size()))
    S.replace(At, 5, RunDir);
  return S;
}

} // namespace dfttune
