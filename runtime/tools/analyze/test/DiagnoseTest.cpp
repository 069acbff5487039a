//===- DiagnoseTest.cpp - Diagnosis rules on built aggregates -------------===//

#include "Diagnose.h"

#include <gtest/gtest.h>

using namespace dftanalyze;

namespace {

DiagnosisRules imbalanceRules() {
  DiagnosisRules Rules;
  DiagnosisRule &R = Rules.Rules["rank_imbalance"];
  R.Kind = "rank_imbalance";
  R.Params = {{"min_ratio", 2.0}, {"min_ranks", 2}, {"min_seconds", 0.05}};
  return Rules;
}

/// N ranks with 0.1 s of I/O each, rank Slow with Factor times that.
Aggregate ranks(size_t N, size_t Slow, double Factor) {
  Aggregate A;
  A.FileNames = {"app-1-app.pfw"};
  for (size_t I = 0; I < N; ++I) {
    ProcessStat P;
    P.Pid = static_cast<int64_t>(1000 + I);
    P.Rank = std::to_string(I);
    P.Spans = 1;
    P.FirstUs = 0;
    P.LastUs = 1000000;
    P.Io.Once.Ops = 10;
    P.IoUnionUs = I == Slow ? static_cast<uint64_t>(100000 * Factor) : 100000;
    A.Processes.push_back(P);
  }
  return A;
}

} // namespace

// Drishti's P19 divides the slowest-fastest difference by the sum over
// ranks, so a rank twice as slow falls under its 15 % from about 6 ranks.
// Slowest over median does not fade.
TEST(Diagnose, StragglerDoesNotFadeWithRanks) {
  DiagnosisRules Rules = imbalanceRules();
  for (size_t N : {4, 16, 64, 256}) {
    Aggregate A = ranks(N, N / 2, 2.0);
    Report R(A);
    std::vector<Finding> F = diagnose(R, Rules);
    ASSERT_EQ(F.size(), 1u) << N << " ranks";
    EXPECT_EQ(F[0].Kind, "rank_imbalance");
    EXPECT_EQ(F[0].Ranks, std::vector<std::string>{std::to_string(N / 2)});
    EXPECT_EQ(F[0].RecoverableUs, 100000u);
    ASSERT_FALSE(F[0].Proof.empty());
    EXPECT_DOUBLE_EQ(F[0].Proof[0].Value, 2.0);
  }
}

TEST(Diagnose, BalancedRanksHaveNoFinding) {
  DiagnosisRules Rules = imbalanceRules();
  Aggregate A = ranks(64, 0, 1.5); // under the 2x threshold
  Report R(A);
  EXPECT_TRUE(diagnose(R, Rules).empty());
}

TEST(Diagnose, BelowMinimumSupportNoFinding) {
  DiagnosisRules Rules = imbalanceRules();
  Rules.Rules["rank_imbalance"].Params["min_seconds"] = 0.5; // 0.1 s excess
  Aggregate A = ranks(8, 3, 2.0);
  Report R(A);
  EXPECT_TRUE(diagnose(R, Rules).empty());
}

TEST(Diagnose, RulesFileErrorsNameTheFile) {
  DiagnosisRules Rules;
  std::string Error;
  std::string Path = ::testing::TempDir() + "/bad_rules.json";
  FILE *F = std::fopen(Path.c_str(), "w");
  std::fputs("{\"rules\":{\"no_such_kind\":{}}}", F);
  std::fclose(F);
  EXPECT_FALSE(loadDiagnosisRules(Path, Rules, Error));
  EXPECT_NE(Error.find(Path + ": rule \"no_such_kind\": unknown kind"),
            std::string::npos)
      << Error;
}
