//===- DiagnoseTest.cpp - Diagnosis rules on built aggregates -------------===//

#include "Diagnose.h"

#include <gtest/gtest.h>

#include <algorithm>

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

// Independent MPI-IO that HDF5 issued is named at the function that called
// H5Dwrite, with HDF5's advice; a few direct calls elsewhere are not the
// first site.
TEST(Diagnose, IndependentMpiioThroughHdf5NamesItsCaller) {
  std::string Error;
  DiagnosisRules Rules;
  ASSERT_TRUE(loadDiagnosisRules(defaultDiagnosisRules(), Rules, Error))
      << Error;
  Aggregate A = ranks(2, 0, 1.0);
  FileStat &File = A.Files["/scratch/particles.h5"];
  File.Processes = 2;
  OpStat &Indep =
      File.Mpi.Kinds[static_cast<size_t>(dftrace::MpiKind::Independent)];
  Indep.Ops = 1000;
  Indep.TimeUs = 500000;
  Indep.Bytes = 4096000;
  auto Site = [&](const char *Fn, const char *Chain, dftrace::Layer Top,
                  uint64_t Ops, uint64_t Us) {
    SiteStat &S = A.Diag.Sites[{Fn, Chain}];
    S.Layer = static_cast<uint8_t>(dftrace::Layer::MpiIo);
    S.Op = static_cast<uint8_t>(dftrace::Op::Write);
    S.Mpi = static_cast<uint8_t>(dftrace::MpiKind::Independent);
    S.TopLayer = static_cast<uint8_t>(Top);
    S.C.Ops = Ops;
    S.C.TimeUs = Us;
    S.Processes = 2;
  };
  Site("write_header", "MPI_File_write_at", dftrace::Layer::MpiIo, 40, 100);
  Site("write_dataset", "H5Dwrite > MPI_File_write_at", dftrace::Layer::Hdf5,
       960, 499900);
  Report R(A);
  std::vector<Finding> Found = diagnose(R, Rules);
  auto It = std::find_if(Found.begin(), Found.end(), [](const Finding &F) {
    return F.Kind == "independent_mpiio";
  });
  ASSERT_NE(It, Found.end());
  ASSERT_FALSE(It->Sites.empty());
  EXPECT_EQ(It->Sites[0].Function, "write_dataset");
  ASSERT_FALSE(It->Advices.empty());
  EXPECT_NE(It->Advices[0].find("H5Pset_dxpl_mpio"), std::string::npos)
      << It->Advices[0];
}
