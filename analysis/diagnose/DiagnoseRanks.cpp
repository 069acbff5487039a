//===- DiagnoseRanks.cpp - Kinds of how the ranks share the I/O -----------===//
//
// rank_imbalance (the job's slowest rank, and per phase: an annotated
// function every rank ran) and single_rank_io (one rank moving a shared
// file's bytes), from the per-rank figures of the files and functions.
//
//===----------------------------------------------------------------------===//

#include "DiagnoseInternal.h"

#include <algorithm>
#include <map>

namespace dftanalyze {
namespace diagnosis {

void Diagnoser::rankImbalance(const DiagnosisRule &Rule) {
  // Ranks are compared with the ranks of their own program: traces of
  // several jobs read together (the demo's kernels: RankFigures::Program)
  // are not one job whose ranks wait for each other. The program whose
  // slowest rank is furthest above its median is the one judged.
  using Ranked = std::vector<std::pair<uint64_t, const RankFigures *>>;
  std::map<std::string, Ranked> ByProgram;
  Ranked *Into = nullptr; // R.Ranks is by program: a lookup per program
  const std::string *IntoProgram = nullptr;
  for (const RankFigures &RF : R.Ranks)
    if (RF.P->Io.Once.Ops) {
      if (!IntoProgram || RF.Program != *IntoProgram) {
        Into = &ByProgram[RF.Program];
        IntoProgram = &RF.Program;
      }
      Into->push_back({RF.P->IoUnionUs, &RF});
    }
  // Of each program its slowest rank (the last of the slowest in rank
  // order) and its median's time: what a sort of its ranks by time gave,
  // without sorting them (issue 41).
  size_t Ranks = 0;
  uint64_t Median = 0, Max = 0;
  const RankFigures *Slow = nullptr;
  double Ratio = 0;
  for (auto &[Program, T] : ByProgram) {
    if (T.size() < std::max(2.0, Rule.param("min_ranks", 2)))
      continue;
    size_t Slowest = 0;
    for (size_t I = 1; I < T.size(); ++I)
      if (T[I].first >= T[Slowest].first)
        Slowest = I;
    auto [ItsMax, ItsSlow] = T[Slowest];
    auto Middle = T.begin() + static_cast<ptrdiff_t>((T.size() - 1) / 2);
    std::nth_element(
        T.begin(), Middle, T.end(),
        [](const auto &X, const auto &Y) { return X.first < Y.first; });
    double Its = ratio(ItsMax, Middle->first);
    if (!Slow || Its > Ratio) {
      Ratio = Its;
      Ranks = T.size();
      Median = Middle->first;
      Max = ItsMax;
      Slow = ItsSlow;
    }
  }
  if (!Slow)
    return;
  Finding F;
  std::string SlowTag = tagOf(*Slow);
  if (!atLeast(Rule, F, "slowest_over_median_io_time", Ratio, "min_ratio") ||
      !supported(Rule, F, 0, 0, Max - Median)) {
    phaseImbalance(Rule, "", "");
    return;
  }
  cost(F, Slow->P->Io.Once.Ops, Slow->P->Io.reached().bytes(), Max);
  F.RecoverableUs = Max - Median;
  F.Method = "the slowest rank's I/O time minus the median rank's: what the "
             "other ranks wait for at the next synchronisation";
  F.Ranks = {Slow->Label};
  std::string SlowRank = siteRank(SlowTag, processRank(*Slow->P));
  F.Sites = topSites(
      [&](const SiteRef &S) {
        return atBottom(S) && std::binary_search(S.S->Ranks.begin(),
                                                 S.S->Ranks.end(), SlowRank);
      },
      byTime);
  // Per shared file of its job: the slowest process against the mean of
  // the others (as per file).
  for (const auto &[Key, FR] : A.Diag.FileRanks) {
    if (Key.first != SlowTag || FR.Processes < 2)
      continue;
    double Others = double(FR.SumTimeUs - FR.MaxTimeUs) / (FR.Processes - 1);
    if (ratio(FR.MaxTimeUs, Others) >= Rule.param("min_ratio") &&
        FR.MaxTimeUs - Others >= Rule.param("min_seconds") * 1e6)
      listFile(F, Key.second);
  }
  std::string Of = Slow->Program.empty() ? "" : " of " + Slow->Program;
  F.Summary = processName(Slow->Label) + " spends " + secs(Max) +
              " s in I/O against the median rank's " + secs(Median) + " s (" +
              fmt("%.2f", Ratio) + "x, " + std::to_string(Ranks) + " ranks" +
              Of + " with I/O)";
  std::string JobFunction = F.Sites.empty() ? "" : F.Sites[0].Function;
  add(Rule, std::move(F),
      {{"rank", Slow->Label}, {"ratio", fmt("%.2fx", Ratio)}});
  phaseImbalance(Rule, SlowTag, JobFunction);
}

/// Per phase: an annotated function that every rank with I/O of its job
/// ran, its slowest process's time in the function's own I/O calls against
/// the mean of the others' (as per file). A rank slow in one phase only is
/// found even when the job's totals even out; a phase the job-level
/// finding already names (its job and first site's function) is not
/// repeated.
void Diagnoser::phaseImbalance(const DiagnosisRule &Rule,
                               const std::string &NamedTag,
                               const std::string &NamedFunction) {
  // Job -> its ranks with I/O, counted by the jobs' hashes (a tag made per
  // rank was most of this at 100,000 ranks, issue 41).
  std::map<uint64_t, size_t> IoRanks;
  auto Into = IoRanks.end();
  for (size_t I = 0; I < R.Ranks.size(); ++I)
    if (R.Ranks[I].P->Io.Once.Ops) {
      if (Into == IoRanks.end() || Into->first != RankJobs[I])
        Into = IoRanks.try_emplace(RankJobs[I]).first;
      ++Into->second;
    }
  std::map<std::string, size_t> WithIo;
  for (const auto &[Job, N] : IoRanks)
    WithIo[jobTagOf(Job)] = N;
  for (const auto &[Key, FR] : A.Diag.FunctionRanks) {
    const auto &[Tag, Fn] = Key;
    if (Fn == NoFunction || (Tag == NamedTag && Fn == NamedFunction) ||
        FR.Processes < 2 || FR.Processes < WithIo[Tag])
      continue;
    double Others = double(FR.SumTimeUs - FR.MaxTimeUs) / (FR.Processes - 1);
    double Ratio = ratio(FR.MaxTimeUs, Others);
    uint64_t Excess = usOf((FR.MaxTimeUs - Others) / 1e6);
    Finding F;
    if (!atLeast(Rule, F, "phase_slowest_over_others_io_time", Ratio,
                 "min_ratio") ||
        !supported(Rule, F, 0, 0, Excess))
      continue;
    cost(F, 0, 0, FR.MaxTimeUs);
    F.RecoverableUs = Excess;
    F.Method = "the slowest rank's I/O time in " + Fn +
               " minus the mean of the other ranks': what they wait for "
               "at the end of the phase";
    std::string Label = rankLabel(Tag, FR.MaxTimeRank);
    F.Ranks = {Label};
    const std::string &Fun = Fn, Rank = siteRank(Tag, FR.MaxTimeRank);
    F.Sites = topSites(
        [&](const SiteRef &S) {
          return *S.Function == Fun && atBottom(S) &&
                 std::binary_search(S.S->Ranks.begin(), S.S->Ranks.end(), Rank);
        },
        byTime);
    if (F.Sites.empty()) // I/O called in the function, none below it
      F.Sites = topSites([&](const SiteRef &S) { return *S.Function == Fun; },
                         byTime);
    F.Summary = "phase " + Fn + ": " + processName(Label) + " spends " +
                secs(FR.MaxTimeUs) + " s in its I/O against the others' " +
                fmt("%.6f", Others / 1e6) + " s (" + fmt("%.2f", Ratio) +
                "x, " + std::to_string(FR.Processes) + " ranks ran it)";
    add(Rule, std::move(F), {{"rank", Label}, {"ratio", fmt("%.2fx", Ratio)}});
  }
}

void Diagnoser::singleRankIo(const DiagnosisRule &Rule) {
  for (const auto &[Key, FR] : A.Diag.FileRanks) {
    const auto &[Tag, Path] = Key;
    if (FR.Processes < 2 || !FR.SumBytes)
      continue;
    double Share = ratio(FR.MaxBytes, FR.SumBytes);
    Finding F;
    if (!atLeast(Rule, F, "one_rank_byte_share", Share, "min_share") ||
        !supported(Rule, F, 0, FR.SumBytes, FR.SumTimeUs))
      continue;
    uint64_t Balanced = FR.SumTimeUs / FR.Processes;
    F.RecoverableUs = FR.MaxTimeUs > Balanced ? FR.MaxTimeUs - Balanced : 0;
    F.Method = "the busiest rank's time on the file minus the time if every "
               "one of the " +
               std::to_string(FR.Processes) + " ranks had an equal share";
    std::string Label = rankLabel(Tag, FR.MaxBytesRank);
    F.Ranks = {Label};
    listFile(F, Path);
    const std::string Rank = siteRank(Tag, FR.MaxBytesRank);
    F.Sites = topSites(
        [&](const SiteRef &S) {
          return S.L() == S.Top() && dftrace::isDataOp(S.O()) &&
                 S.S->Processes == 1 && S.S->Ranks.size() == 1 &&
                 S.S->Ranks[0] == Rank;
        },
        byBytes);
    F.Summary = processName(Label) + " moves " + pct(Share) + " of the " +
                std::to_string(FR.SumBytes) + " B of " + Path + " (" +
                std::to_string(FR.Processes) + " processes opened it)";
    add(Rule, std::move(F),
        {{"rank", Label}, {"ratio", pct(Share)}, {"file", Path}});
  }
}

} // namespace diagnosis
} // namespace dftanalyze
