//===- CaveatsTest.cpp - What the figures of a report do not hold ---------===//

#include "analyze/Caveats.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace dftanalyze;

namespace {

bool has(const std::vector<std::string> &Lines, const std::string &Want) {
  return std::find(Lines.begin(), Lines.end(), Want) != Lines.end();
}

} // namespace

// Ranks 0 and 3 traced: 1 and 2 are missing; the per-file caveats come
// after the trace's, the first Top of them and a count.
TEST(Caveats, MissingRanksAndFileCaveats) {
  Aggregate A;
  A.FileNames = {"app-0.pfw", "app-3.pfw"};
  for (const char *Rank : {"0", "3"}) {
    ProcessStat P;
    P.Pid = 100 + Rank[0];
    P.Rank = Rank;
    P.Spans = 1;
    P.LastUs = 10;
    A.Processes.push_back(P);
  }
  A.Caveats = {{0, "no args: bytes unknown"}, {1, "no args: bytes unknown"}};
  Report R(A);
  std::vector<std::string> Trace = traceCaveats(R);
  EXPECT_TRUE(has(Trace, "2 of ranks 0-3 have no trace"));
  std::vector<std::string> All = reportCaveats(R, 1);
  EXPECT_TRUE(has(All, "2 of ranks 0-3 have no trace"));
  EXPECT_TRUE(has(All, "app-0.pfw: no args: bytes unknown"));
  EXPECT_FALSE(has(All, "app-3.pfw: no args: bytes unknown"));
  EXPECT_TRUE(
      has(All, "... 1 more caveats of trace files (--json lists them)"));
}

TEST(Caveats, NoneForACompleteTrace) {
  Aggregate A;
  A.FileNames = {"app-0.pfw"};
  ProcessStat P;
  P.Pid = 1;
  P.Rank = "0";
  P.Spans = 1;
  A.Processes.push_back(P);
  Report R(A);
  EXPECT_TRUE(reportCaveats(R, 10).empty());
}
