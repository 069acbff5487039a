//===- DiagnoseTest.cpp - Diagnosis rules on built aggregates -------------===//

#include "diagnose/Diagnose.h"
#include "diagnose/DiagnoseInternal.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>

using namespace dftanalyze;

namespace {

DiagnosisRules imbalanceRules() {
  DiagnosisRules Rules;
  DiagnosisRule &R = Rules.Rules["rank_imbalance"];
  R.Kind = "rank_imbalance";
  R.Params = {{"min_ratio", 2.0}, {"min_ranks", 2}, {"min_seconds", 0.05}};
  return Rules;
}

/// Rank of A's job (its first process's), as the facts hold it (CallSites.h).
std::string jobRank(const Aggregate &A, const std::string &Rank) {
  return siteRank(jobTag(jobKey(A.Processes.at(0), A.FileNames)), Rank);
}

/// The facts' key of Name (a path or function) in A's job.
std::pair<std::string, std::string> jobKeyOf(const Aggregate &A,
                                             const std::string &Name) {
  return {jobTag(jobKey(A.Processes.at(0), A.FileNames)), Name};
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

namespace {

/// Two ranks writing their own HDF5 file on ext4 (4 KiB blocks) through
/// write_fields > H5Dwrite > pwrite: 24 data writes of 1 MiB and more, of
/// which Misaligned start off a block, and Meta HDF5 metadata writes (under
/// H5Fclose), with the alignment the HDF5_FILE records hold.
Aggregate hdf5Files(const char *Alignment, uint64_t Misaligned, uint64_t Meta,
                    bool FsRecord = true) {
  Aggregate A = ranks(2, 0, 1.0);
  const size_t Posix = ioSlot(dftrace::Layer::Posix);
  const uint64_t Data = 24, Bytes = 24 * 1100000;
  for (const char *Path : {"/scratch/fields.h5.0", "/scratch/fields.h5.1"}) {
    FileStat &F = A.Files[Path];
    F.Processes = 1;
    F.Hdf5Opens = 1;
    F.Hdf5Props["alignment"][Alignment] = 1;
    F.Hdf5Props["alignment_threshold"]["1"] = 1;
    if (FsRecord) {
      F.Fs.Type = "ext4";
      F.Fs.BlockSize = 4096;
    }
    F.Layers[Posix] = {Data + Meta, 0, Bytes + Meta * 512, 200000};
    AccessStats &S = F.Access[Posix];
    S.Writes = Data + Meta;
    S.BytesWritten = Bytes + Meta * 512;
    S.NotAligned = Misaligned + Meta;
    S.NotAlignedBytes = Misaligned * 1100000 + Meta * 512;
    A.Io.Layers[Posix].merge(F.Layers[Posix]);
  }
  auto Site = [&](const char *Fn, const char *Chain, uint64_t Ops,
                  uint64_t Us) {
    SiteStat &S = A.Diag.Sites[{Fn, Chain}];
    S.Layer = static_cast<uint8_t>(dftrace::Layer::Posix);
    S.Op = static_cast<uint8_t>(dftrace::Op::Write);
    S.TopLayer = static_cast<uint8_t>(dftrace::Layer::Hdf5);
    S.C.Ops = Ops;
    S.C.TimeUs = Us;
    S.Processes = 2;
    S.Ranks = {jobRank(A, "0"), jobRank(A, "1")};
  };
  Site("write_fields", "H5Dwrite > pwrite", 2 * Data, 390000);
  if (Meta)
    Site("main", "H5Fclose > pwrite", 2 * Meta, 10000);
  return A;
}

/// IOR 4.0.0's POSIX run shape (bench/ior, -a POSIX -t 4k): one process
/// per file, a seek before each 4 KiB write, two opens, stats and closes,
/// and MPICH's shared-memory segment in /dev/shm with more I/O time than
/// the data file.
Aggregate iorPosixShape() {
  Aggregate A = ranks(1, 0, 1.0);
  size_t Posix = ioSlot(dftrace::Layer::Posix);
  A.Io.Layers[Posix].Ops = 4106;
  auto AddFile = [&](const char *Path, const char *Fs, uint64_t Ops,
                     uint64_t Meta, uint64_t Seeks, uint64_t Opens,
                     uint64_t Us) {
    FileStat &F = A.Files[Path];
    F.Processes = 1;
    F.Layers[Posix].Ops = Ops;
    F.Layers[Posix].TimeUs = Us;
    F.Layers[Posix].BytesWritten = (Ops - Meta) * 4096;
    F.MetaOps[Posix] = Meta;
    F.Calls[Posix][static_cast<size_t>(dftrace::Op::Seek)] = Seeks;
    F.Calls[Posix][static_cast<size_t>(dftrace::Op::Open)] = Opens;
    F.Calls[Posix][static_cast<size_t>(dftrace::Op::Stat)] = Opens;
    F.Fs.Type = Fs;
  };
  AddFile("/scratch/ior/testFile", "ext4", 4106, 2058, 2048, 2, 30000);
  AddFile("/dev/shm/mpich_shar_tmpX", "tmpfs", 20, 4, 0, 2, 90000);
  AddFile("/", "ext4", 4, 4, 0, 0, 40000); // stat'ed, no data
  auto Site = [&](const char *Fn, const char *Chain, dftrace::Op O,
                  uint64_t Ops, uint64_t Us, bool Small) {
    SiteStat &S = A.Diag.Sites[{Fn, Chain}];
    S.Layer = S.TopLayer = static_cast<uint8_t>(dftrace::Layer::Posix);
    S.Op = static_cast<uint8_t>(O);
    S.C.Ops = Ops;
    S.C.TimeUs = Us;
    S.C.Bytes = dftrace::isDataOp(O) ? Ops * 4096 : 0;
    if (Small) {
      S.C.SmallOps = Ops;
      S.C.SmallTimeUs = Us;
      S.C.SmallBytes = S.C.Bytes;
    }
    S.Processes = 1;
  };
  Site("POSIX_Xfer", "write", dftrace::Op::Write, 2048, 28000, true);
  Site("POSIX_Xfer", "read", dftrace::Op::Read, 2048, 2000, true);
  Site("POSIX_Xfer", "lseek", dftrace::Op::Seek, 2048, 1000, false);
  Site("POSIX_Open", "open", dftrace::Op::Open, 2, 50, false);
  Site("POSIX_Close", "close", dftrace::Op::Close, 2, 20, false);
  Site("POSIX_GetFileSize", "stat", dftrace::Op::Stat, 4, 60, false);
  Site("POSIX_Delete", "unlink", dftrace::Op::Namespace, 2, 1600, false);
  return A;
}

/// The findings of the installed rules file on A.
std::vector<Finding> diagnoseWithDefaultRules(const Aggregate &A) {
  std::string Error;
  DiagnosisRules Rules;
  EXPECT_TRUE(loadDiagnosisRules(defaultDiagnosisRules(), Rules, Error))
      << Error;
  Report R(A);
  return diagnose(R, Rules);
}

const Finding *findingOf(const std::vector<Finding> &F, const char *Kind) {
  auto It = std::find_if(F.begin(), F.end(),
                         [&](const Finding &X) { return X.Kind == Kind; });
  return It == F.end() ? nullptr : &*It;
}

std::vector<Finding> kindOnly(const Aggregate &A, const char *Kind) {
  std::vector<Finding> F = diagnoseWithDefaultRules(A);
  F.erase(std::remove_if(F.begin(), F.end(),
                         [&](const Finding &X) { return X.Kind != Kind; }),
          F.end());
  return F;
}

bool anyAdvice(const Finding &F, const std::string &Text) {
  return std::any_of(F.Advices.begin(), F.Advices.end(), [&](auto &A) {
    return A.find(Text) != std::string::npos;
  });
}

} // namespace

// No alignment (1) on 4 KiB blocks, every dataset write off a block: the
// finding names write_fields, and the advice the unit the FS record gave.
TEST(Diagnose, Hdf5UnalignedAdvisesTheFileSystemsUnit) {
  std::vector<Finding> F = kindOnly(hdf5Files("1", 24, 4), "hdf5_unaligned");
  ASSERT_EQ(F.size(), 1u);
  ASSERT_FALSE(F[0].Sites.empty());
  EXPECT_EQ(F[0].Sites[0].Function, "write_fields");
  EXPECT_EQ(F[0].Files.size(), 2u);
  EXPECT_EQ(F[0].Files[0].FsType, "ext4");
  EXPECT_TRUE(anyAdvice(F[0], "H5Pset_alignment(fapl, 4096, 4096)"));
  EXPECT_TRUE(anyAdvice(F[0], "the files are on ext4, not a parallel"));
  EXPECT_FALSE(anyAdvice(F[0], "H5Pset_meta_block_size")); // data dominates
  EXPECT_FALSE(anyAdvice(F[0], "on Lustre the unit is the stripe size"));
}

// Where HDF5's metadata writes outnumber its data writes, the advice adds
// H5Pset_meta_block_size.
TEST(Diagnose, Hdf5UnalignedMetadataAddsMetaBlockSize) {
  std::vector<Finding> F = kindOnly(hdf5Files("1", 24, 100), "hdf5_unaligned");
  ASSERT_EQ(F.size(), 1u);
  EXPECT_TRUE(anyAdvice(F[0], "H5Pset_meta_block_size(fapl, 4096)"));
}

// Aligned as the file system wants (a multiple of 4 KiB): no finding, even
// with misaligned bytes (those are misaligned_requests' business); and none
// where most bytes are aligned, or without an FS record to judge against.
TEST(Diagnose, Hdf5UnalignedNeedsUnalignedBytesAndAUnit) {
  EXPECT_TRUE(kindOnly(hdf5Files("8192", 24, 4), "hdf5_unaligned").empty());
  EXPECT_TRUE(kindOnly(hdf5Files("1", 2, 4), "hdf5_unaligned").empty());
  EXPECT_TRUE(
      kindOnly(hdf5Files("1", 24, 4, false), "hdf5_unaligned").empty());
  EXPECT_EQ(kindOnly(hdf5Files("512", 24, 4), "hdf5_unaligned").size(), 1u);
}

// A phase is an annotated function every rank with I/O ran: rank 2 is 4x
// slower than the others in write_phase only, and the job's I/O times
// (read_phase evens them out) stay under the 2x job-level threshold.
TEST(Diagnose, RankSlowInOnePhaseIsFound) {
  DiagnosisRules Rules = imbalanceRules();
  Aggregate A = ranks(4, 2, 1.5);
  for (size_t I = 0; I < 4; ++I) {
    std::string Rank = std::to_string(I);
    A.Diag.FunctionRanks[jobKeyOf(A, "read_phase")].add(
        0, I == 2 ? 50000 : 350000, Rank);
    A.Diag.FunctionRanks[jobKeyOf(A, "write_phase")].add(
        0, I == 2 ? 400000 : 100000, Rank);
    // main ran on rank 0 only: not a phase of every rank.
    if (I == 0)
      A.Diag.FunctionRanks[jobKeyOf(A, "main")].add(0, 900000, Rank);
  }
  SiteStat &S = A.Diag.Sites[{"write_phase", "pwrite"}];
  S.Layer = S.TopLayer = static_cast<uint8_t>(dftrace::Layer::Posix);
  S.Op = static_cast<uint8_t>(dftrace::Op::Write);
  S.C.Ops = 40;
  S.C.TimeUs = 700000;
  S.Ranks = {jobRank(A, "0"), jobRank(A, "1"), jobRank(A, "2"),
             jobRank(A, "3")};
  A.Io.Layers[ioSlot(dftrace::Layer::Posix)].Ops = 40;
  Report R(A);
  std::vector<Finding> F = diagnose(R, Rules);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Kind, "rank_imbalance");
  EXPECT_EQ(F[0].Ranks, std::vector<std::string>{"2"});
  ASSERT_FALSE(F[0].Sites.empty());
  EXPECT_EQ(F[0].Sites[0].Function, "write_phase");
  ASSERT_FALSE(F[0].Proof.empty());
  EXPECT_DOUBLE_EQ(F[0].Proof[0].Value, 4.0);
  EXPECT_EQ(F[0].RecoverableUs, 300000u);
  // Balanced phases: nothing.
  Aggregate B = ranks(4, 2, 1.0);
  for (size_t I = 0; I < 4; ++I)
    B.Diag.FunctionRanks[jobKeyOf(B, "write_phase")].add(0, 100000,
                                                         std::to_string(I));
  Report RB(B);
  EXPECT_TRUE(diagnose(RB, Rules).empty());
}

// A seek before every transfer is not "the same path opened, stat'ed and
// closed repeatedly": on IOR -t 4k the repeats test counted 8200 lseek per
// process and named POSIX_Delete's unlink as the cause.
TEST(Diagnose, SeeksAreNotMetadataRepeats) {
  Aggregate A = iorPosixShape();
  std::vector<Finding> Found = diagnoseWithDefaultRules(A);
  EXPECT_EQ(findingOf(Found, "metadata_heavy"), nullptr);
  EXPECT_NE(findingOf(Found, "small_requests"), nullptr);
  // The same file opened and stat'ed 400 times is a repeat.
  FileStat &F = A.Files["/scratch/ior/testFile"];
  size_t Posix = ioSlot(dftrace::Layer::Posix);
  F.Calls[Posix][static_cast<size_t>(dftrace::Op::Open)] = 400;
  F.Calls[Posix][static_cast<size_t>(dftrace::Op::Stat)] = 400;
  F.MetaOps[Posix] += 800;
  std::vector<Finding> Reopened = diagnoseWithDefaultRules(A);
  const Finding *Meta = findingOf(Reopened, "metadata_heavy");
  ASSERT_NE(Meta, nullptr);
  EXPECT_EQ(Meta->Files.at(0).Path, "/scratch/ior/testFile");
}

// Metadata sites rank by their calls beyond one per process: the
// scenario metadata_reopen failed in CI when the one open64 of "/" that
// MPI's start-up makes per rank (outside any span), ~5 us, was preempted
// for longer than append_log's ~1.7 ms of reopens (400 a rank) and named
// before it. Here the two opens take 5 ms.
TEST(Diagnose, MetadataSitesRankByTheirRepeats) {
  Aggregate A = ranks(2, 0, 1.0);
  size_t Posix = ioSlot(dftrace::Layer::Posix);
  A.Io.Layers[Posix].Ops = 1604;
  A.Io.Layers[Posix].TimeUs = 8000;
  FileStat &Log = A.Files["/scratch/log.1"];
  Log.Processes = 2;
  Log.Layers[Posix].Ops = 1600;
  Log.Layers[Posix].TimeUs = 3000;
  Log.MetaOps[Posix] = 1600;
  Log.Calls[Posix][static_cast<size_t>(dftrace::Op::Open)] = 800;
  Log.Calls[Posix][static_cast<size_t>(dftrace::Op::Close)] = 800;
  auto Site = [&](const char *Fn, const char *Chain, dftrace::Op O,
                  uint64_t Ops, uint64_t Us) {
    SiteStat &S = A.Diag.Sites[{Fn, Chain}];
    S.Layer = S.TopLayer = static_cast<uint8_t>(dftrace::Layer::Posix);
    S.Op = static_cast<uint8_t>(O);
    S.C.Ops = Ops;
    S.C.TimeUs = Us;
    S.Processes = 2;
  };
  Site("(no function)", "(no function) > open64", dftrace::Op::Open, 2, 5000);
  Site("append_log", "append_log > open", dftrace::Op::Open, 800, 2000);
  Site("append_log", "append_log > close", dftrace::Op::Close, 800, 1000);
  Site("main", "main > unlink", dftrace::Op::Namespace, 2, 10);
  std::vector<Finding> Found = diagnoseWithDefaultRules(A);
  const Finding *Meta = findingOf(Found, "metadata_heavy");
  ASSERT_NE(Meta, nullptr);
  ASSERT_EQ(Meta->Sites.size(), 4u);
  EXPECT_EQ(Meta->Sites[0].Chain, "append_log > open");
  EXPECT_EQ(Meta->Sites[1].Chain, "append_log > close");
  EXPECT_NE(Meta->Summary.find("most from append_log"), std::string::npos)
      << Meta->Summary;
  // Its time is still reported whole.
  EXPECT_EQ(Meta->Sites[2].Chain, "(no function) > open64");
  EXPECT_EQ(Meta->Sites[2].TimeUs, 5000u);
}

// The demo's 263,313 small writes (small_requests) averaged 68.8 B and
// were said "mean 68 B": the mean is rounded to the byte, not cut.
TEST(Diagnose, SmallCallsMeanIsRoundedToTheByte) {
  diagnosis::SmallCalls C;
  SiteCounts S;
  S.Ops = S.SmallOps = 5;
  S.SmallBytes = 344; // 68.8 B
  C.add(S);
  EXPECT_EQ(C.meanBytes(), 69u);
  S.SmallBytes = 341; // 68.2 B more: 685 B over 10 calls
  C.add(S);
  EXPECT_EQ(C.meanBytes(), 69u); // 68.5 rounds up
  EXPECT_EQ(diagnosis::SmallCalls().meanBytes(), 0u);
}

// MPICH's /dev/shm segment is not where the data went: the advice of a
// finding follows the data file's file system (ext4), not tmpfs; a path
// IOR only stat'ed ("/") is not a file of a small-requests finding.
TEST(Diagnose, MpiSharedMemoryIsNotTheFindingsFileSystem) {
  Aggregate A = iorPosixShape();
  std::vector<Finding> Found = diagnoseWithDefaultRules(A);
  const Finding *Small = findingOf(Found, "small_requests");
  ASSERT_NE(Small, nullptr);
  ASSERT_EQ(Small->Files.size(), 1u); // "/" moved no data
  EXPECT_EQ(Small->Files[0].Path, "/scratch/ior/testFile");
  for (const FindingFile &F : Small->Files)
    EXPECT_NE(F.FsType, "tmpfs") << F.Path;
  for (const std::string &Advice : Small->Advices)
    EXPECT_EQ(Advice.find("say nothing about a parallel file system"),
              std::string::npos)
        << Advice;
}

// The throttle caveat of a function is said once per finding, however many
// of its sites the finding lists (IOR: MPIIO_Xfer > write and > read).
TEST(Diagnose, ThrottleCaveatOncePerFunction) {
  Aggregate A = iorPosixShape();
  A.Functions["POSIX_Xfer"].ThrottledCalls = 96;
  std::vector<Finding> Found = diagnoseWithDefaultRules(A);
  const Finding *Small = findingOf(Found, "small_requests");
  ASSERT_NE(Small, nullptr);
  ASSERT_GE(Small->Sites.size(), 2u);
  EXPECT_EQ(std::count_if(Small->Caveats.begin(), Small->Caveats.end(),
                          [](const std::string &C) {
                            return C.rfind("POSIX_Xfer: 96 calls", 0) == 0;
                          }),
            1);
}

// 8 MiB written and read back on a node with 64 GiB: 0.0122 % of the
// memory, which one decimal printed as "0.0%". A non-zero share is never
// shown as 0.
TEST(Diagnose, CacheBoundSmallShareIsNotZero) {
  Aggregate A = ranks(1, 0, 1.0);
  A.Processes[0].Host = "node1";
  A.Processes[0].MemTotal = 64ull << 30;
  size_t Posix = ioSlot(dftrace::Layer::Posix);
  A.Io.Layers[Posix].Ops = 4;
  FileStat &F = A.Files["/scratch/data"];
  F.Processes = 1;
  F.Layers[Posix].Ops = 4;
  F.Layers[Posix].TimeUs = 3000;
  F.Layers[Posix].BytesWritten = 8 << 20;
  F.Layers[Posix].BytesRead = 8 << 20;
  F.ReadTimeUs[Posix] = 2000;
  std::vector<Finding> Found = diagnoseWithDefaultRules(A);
  const Finding *Cache = findingOf(Found, "cache_bound");
  ASSERT_NE(Cache, nullptr);
  EXPECT_NE(Cache->Summary.find("are 0.012% of the nodes' memory"),
            std::string::npos)
      << Cache->Summary;
}

// A share is never printed as none or all when it is neither: the digits
// its distance from 0 or 100 % needs (0.0% and 100.0% read as exact).
TEST(Diagnose, ShareIsNeverRoundedToNoneOrAll) {
  using dftanalyze::diagnosis::pct;
  EXPECT_EQ(pct(0), "0.0%");
  EXPECT_EQ(pct(1), "100.0%");
  EXPECT_EQ(pct(0.5), "50.0%");
  EXPECT_EQ(pct(0.999), "99.9%");
  EXPECT_EQ(pct(0.00012), "0.012%");
  EXPECT_EQ(pct(0.9996), "99.960%");
  EXPECT_EQ(pct(0.9995), "99.950%");
  EXPECT_EQ(pct(0.99999996), "99.9999960%");
  EXPECT_EQ(pct(1 - 1e-12), "> 99.999999%");
}

// Traces of two programs read together (their file names' prefixes): a
// rank is compared with its own program's ranks, so one program's ranks
// being slower than the other's is no imbalance, and a straggler within
// one program still is.
TEST(Diagnose, RanksAreComparedWithinTheirProgram) {
  DiagnosisRules Rules = imbalanceRules();
  auto twoPrograms = [](double SlowFactor) {
    Aggregate A;
    A.FileNames = {"slow_io-1-app.pfw", "fast_io-2-app.pfw"};
    for (size_t I = 0; I < 8; ++I) {
      ProcessStat P;
      P.Pid = static_cast<int64_t>(1000 + I);
      P.FileIndex = I < 4 ? 0 : 1;
      P.Rank = std::to_string(I % 4);
      P.Spans = 1;
      P.FirstUs = 0;
      P.LastUs = 1000000;
      P.Io.Once.Ops = 10;
      // slow_io's ranks take 1 s each, fast_io's 0.1 s.
      P.IoUnionUs = I < 4 ? 1000000 : 100000;
      if (I == 5)
        P.IoUnionUs = static_cast<uint64_t>(100000 * SlowFactor);
      A.Processes.push_back(P);
    }
    return A;
  };
  Aggregate Even = twoPrograms(1.0);
  Report R(Even);
  EXPECT_TRUE(diagnose(R, Rules).empty());
  Aggregate Straggler = twoPrograms(3.0);
  Report S(Straggler);
  std::vector<Finding> F = diagnose(S, Rules);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Kind, "rank_imbalance");
  EXPECT_EQ(F[0].Ranks, std::vector<std::string>{"fast_io:1"});
  EXPECT_EQ(F[0].RecoverableUs, 200000u);
  EXPECT_NE(F[0].Summary.find("(3.00x, 4 ranks of fast_io with I/O)"),
            std::string::npos)
      << F[0].Summary;
}

// A finding's ranks are its sites' ("TAG:RANK"), named as the report names
// them: the rank of that job only (two programs repeat rank numbers, or
// interleave in rank order), "pid N" for a process without a rank, and a
// rank that no process of the job has as the site holds it.
TEST(Diagnose, SiteRanksNameTheRanksOfTheirJob) {
  DiagnosisRules Rules;
  Rules.Rules["small_requests"].Kind = "small_requests";
  // Process I of trace file Of[I] with rank Ranks[I] ("": none), and one
  // site of small writes whose ranks are Sites ({a file of the job, rank}).
  auto Found = [&](std::vector<std::string> Files, std::vector<size_t> Of,
                   std::vector<std::string> Ranks,
                   std::vector<std::pair<size_t, std::string>> Sites) {
    Aggregate A;
    A.FileNames = std::move(Files);
    for (size_t I = 0; I < Ranks.size(); ++I) {
      ProcessStat P;
      P.Pid = static_cast<int64_t>(1000 + I);
      P.FileIndex = static_cast<uint32_t>(Of[I]);
      P.Rank = Ranks[I];
      A.Processes.push_back(P);
    }
    SiteStat &S = A.Diag.Sites[{"main", "pwrite"}];
    S.Layer = S.TopLayer = static_cast<uint8_t>(dftrace::Layer::Posix);
    S.Op = static_cast<uint8_t>(dftrace::Op::Write);
    S.C.Ops = S.C.SmallOps = 40;
    S.C.Bytes = S.C.SmallBytes = 40 * 4096;
    S.C.TimeUs = S.C.SmallTimeUs = 40000;
    for (const auto &[File, Rank] : Sites) {
      ProcessStat InFile;
      InFile.FileIndex = static_cast<uint32_t>(File);
      S.Ranks.push_back(siteRank(jobTag(jobKey(InFile, A.FileNames)), Rank));
    }
    std::sort(S.Ranks.begin(), S.Ranks.end());
    A.Io.Layers[ioSlot(dftrace::Layer::Posix)].Ops = 40;
    Report R(A);
    std::vector<Finding> F = diagnose(R, Rules);
    EXPECT_EQ(F.size(), 1u);
    return F.empty() ? std::vector<std::string>{} : F[0].Ranks;
  };
  std::vector<std::string> Two = {"writer-1-app.pfw", "reader-2-app.pfw"};
  ProcessStat Reader;
  Reader.FileIndex = 1;
  std::string Unknown = siteRank(jobTag(jobKey(Reader, Two)), "7");
  std::vector<std::string> Want = {Unknown, "reader:1", "reader:pid 1004",
                                   "writer:0"};
  std::sort(Want.begin(), Want.end());
  EXPECT_EQ(Found(Two, {0, 0, 1, 1, 1}, {"0", "1", "0", "1", ""},
                  {{1, "1"}, {1, "pid 1004"}, {0, "0"}, {1, "7"}}),
            Want);
  // One label per rank number (no rank repeats): the jobs interleave in
  // rank order, and reader's rank 2 is not writer's.
  Unknown = siteRank(jobTag(jobKey(Reader, Two)), "2");
  EXPECT_EQ(Found(Two, {0, 1, 0, 1}, {"0", "1", "2", "3"},
                  {{0, "2"}, {1, "1"}, {1, "2"}}),
            (std::vector<std::string>{"1", "2", Unknown}));
}

// The advice that DFTRACER_TUNE can apply is a "try" list: hdf5_unaligned's
// alignment is the file system's unit, twice (issue 35).
TEST(DiagnoseTry, Hdf5UnalignedTriesTheUnit) {
  std::vector<Finding> F = kindOnly(hdf5Files("1", 24, 4), "hdf5_unaligned");
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Try, std::vector<std::string>{"hdf5.alignment=4096,4096"});
  EXPECT_EQ(tuneLine(F[0].Try), "DFTRACER_TUNE='hdf5.alignment=4096,4096'");
}

// A setting the trace shows in effect is not advised: the HDF5_FILE
// records already say meta_block_size 4096 on both files.
TEST(DiagnoseTry, NothingTheTraceShowsInEffect) {
  Aggregate A = hdf5Files("1", 24, 100);
  std::vector<Finding> F = kindOnly(A, "hdf5_unaligned");
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Try, (std::vector<std::string>{"hdf5.alignment=4096,4096",
                                                "hdf5.meta_block_size=4096"}));
  for (auto &[Path, File] : A.Files)
    File.Hdf5Props["meta_block_size"]["4096"] = 1;
  F = kindOnly(A, "hdf5_unaligned");
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Try, std::vector<std::string>{"hdf5.alignment=4096,4096"});
  // One file with another value: not in effect everywhere, still advised.
  A.Files.begin()->second.Hdf5Props["meta_block_size"] = {{"2048", 1}};
  F = kindOnly(A, "hdf5_unaligned");
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Try.size(), 2u);
}

// independent_mpiio through HDF5 tries collective transfers; on Lustre
// romio_cb_write=enable, unless MPIIO_HINTS says it is set already.
TEST(DiagnoseTry, IndependentMpiioTriesCollectiveAndHints) {
  Aggregate A = ranks(2, 0, 1.0);
  FileStat &File = A.Files["/lustre/particles.h5"];
  File.Processes = 2;
  File.Fs.Type = "lustre";
  OpStat &Indep =
      File.Mpi.Kinds[static_cast<size_t>(dftrace::MpiKind::Independent)];
  Indep = {1000, 500000, 4096000};
  SiteStat &S = A.Diag.Sites[{"write_dataset", "H5Dwrite > MPI_File_write_at"}];
  S.Layer = static_cast<uint8_t>(dftrace::Layer::MpiIo);
  S.Op = static_cast<uint8_t>(dftrace::Op::Write);
  S.Mpi = static_cast<uint8_t>(dftrace::MpiKind::Independent);
  S.TopLayer = static_cast<uint8_t>(dftrace::Layer::Hdf5);
  S.C.Ops = 1000;
  S.C.TimeUs = 500000;
  S.Processes = 2;
  std::vector<Finding> F = kindOnly(A, "independent_mpiio");
  ASSERT_EQ(F.size(), 1u);
  std::vector<std::string> Both{"hdf5.xfer=collective",
                                "mpiio.romio_cb_write=enable"};
  EXPECT_EQ(F[0].Try, Both);
  A.Files["/lustre/particles.h5"].MpiInfo.Hints["romio_cb_write"]["enable"] = 2;
  F = kindOnly(A, "independent_mpiio");
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Try, std::vector<std::string>{"hdf5.xfer=collective"});
  A.Files["/lustre/particles.h5"].MpiInfo.Hints["romio_cb_write"] = {
      {"disable", 2}};
  F = kindOnly(A, "independent_mpiio");
  ASSERT_EQ(F.size(), 1u); // said by two advices, listed once
  EXPECT_EQ(F[0].Try, Both);
}

// A "try" that is not KEY=VALUE is an error of the rules file.
TEST(DiagnoseTry, RulesFileChecksTheTryList) {
  DiagnosisRules Rules;
  std::string Error;
  std::string Path = ::testing::TempDir() + "/bad_try.json";
  FILE *F = std::fopen(Path.c_str(), "w");
  std::fputs("{\"rules\":{\"hdf5_unaligned\":{\"advice\":[{\"text\":\"t\","
             "\"try\":[\"hdf5.alignment\"]}]}}}",
             F);
  std::fclose(F);
  EXPECT_FALSE(loadDiagnosisRules(Path, Rules, Error));
  EXPECT_NE(Error.find("\"try\" must list KEY=VALUE strings"),
            std::string::npos)
      << Error;
}

// ---- The shipped rules file itself (issue 36: calibrated, not tuned to a
// test). These load analysis/diagnose/diagnosis_rules.json as installed,
// not rules built here, so docs/diagnosis.md's claims hold for what users
// run.

namespace {

DiagnosisRules shippedRules() {
  std::string Error;
  DiagnosisRules Rules;
  EXPECT_TRUE(loadDiagnosisRules(defaultDiagnosisRules(), Rules, Error))
      << Error;
  return Rules;
}

std::string writeRules(const std::string &Name, const std::string &Text) {
  std::string Path = ::testing::TempDir() + "/" + Name;
  FILE *F = std::fopen(Path.c_str(), "w");
  std::fputs(Text.c_str(), F);
  std::fclose(F);
  return Path;
}

} // namespace

// A typo in a threshold's name is an error at the key's position, never a
// threshold read as absent (0: the rule would fire on everything).
TEST(DiagnoseRules, UnknownThresholdIsAnErrorAtItsPosition) {
  std::string Path = writeRules("typo_rules.json",
                                "{\n"
                                "  \"rules\": {\n"
                                "    \"sync_per_write\": {\n"
                                "      \"min_ratio\": 0.5,\n"
                                "      \"min_shares\": 50\n"
                                "    }\n"
                                "  }\n"
                                "}\n");
  DiagnosisRules Rules;
  std::string Error;
  EXPECT_FALSE(loadDiagnosisRules(Path, Rules, Error));
  EXPECT_EQ(Error.rfind(Path + ":5:7: rule \"sync_per_write\": unknown "
                               "threshold \"min_shares\" (sync_per_write "
                               "reads min_ratio min_ops min_bytes "
                               "min_seconds)",
                        0),
            0u)
      << Error;
  // A threshold of another kind is unknown here too.
  Path = writeRules("other_kind_rules.json",
                    "{\"rules\": {\"cache_bound\": {\"min_ratio\": 1}}}");
  EXPECT_FALSE(loadDiagnosisRules(Path, Rules, Error));
  EXPECT_EQ(Error.rfind(Path + ":1:28: rule \"cache_bound\": unknown "
                               "threshold \"min_ratio\"",
                        0),
            0u)
      << Error;
}

// docs/diagnosis.md: with the shipped min_ratio 3.0 and min_seconds 0.1, a
// rank three times as slow as the median (0.2 s more) is found at any rank
// count; a rank twice as slow is not (the noise of equal ranks on a loaded
// node reached 2.8x); a 3x rank whose excess is under 0.1 s is not.
TEST(DiagnoseRules, ShippedImbalanceThresholds) {
  DiagnosisRules Rules = shippedRules();
  ASSERT_TRUE(Rules.Rules.count("rank_imbalance"));
  EXPECT_DOUBLE_EQ(Rules.Rules["rank_imbalance"].param("min_ratio"), 3.0);
  EXPECT_DOUBLE_EQ(Rules.Rules["rank_imbalance"].param("min_seconds"), 0.1);
  for (size_t N : {4, 16, 64, 256}) {
    Aggregate A = ranks(N, N / 2, 3.0);
    Report R(A);
    std::vector<Finding> F = diagnose(R, Rules);
    ASSERT_EQ(F.size(), 1u) << N << " ranks";
    EXPECT_EQ(F[0].Kind, "rank_imbalance");
    EXPECT_EQ(F[0].Ranks, std::vector<std::string>{std::to_string(N / 2)});
    EXPECT_EQ(F[0].RecoverableUs, 200000u);
    Aggregate Twice = ranks(N, N / 2, 2.0);
    Report RT(Twice);
    EXPECT_TRUE(diagnose(RT, Rules).empty()) << N << " ranks, 2x";
  }
  // 3x of 0.03 s: 0.06 s over the median, under min_seconds.
  Aggregate Short = ranks(8, 3, 3.0);
  for (ProcessStat &P : Short.Processes)
    P.IoUnionUs = P.IoUnionUs * 3 / 10;
  Report RS(Short);
  EXPECT_TRUE(diagnose(RS, Rules).empty());
}

// Every threshold docs/diagnosis.md gives ("Thresholds (rules file):
// `min_share` 0.1, ...") is the shipped file's, and every one the file has
// is in the docs with its value.
TEST(DiagnoseRules, DocsGiveTheShippedThresholds) {
  DiagnosisRules Rules = shippedRules();
  std::string Docs = std::string(DFT_RECORDS_DIR) + "/../../../docs/diagnosis.md";
  FILE *F = std::fopen(Docs.c_str(), "r");
  ASSERT_NE(F, nullptr) << Docs;
  std::string Text;
  char Buf[4096];
  for (size_t N; (N = std::fread(Buf, 1, sizeof(Buf), F)) > 0;)
    Text.append(Buf, N);
  std::fclose(F);
  size_t Checked = 0;
  for (const auto &[Kind, Rule] : Rules.Rules) {
    size_t Section = Text.find("### `" + Kind + "`");
    ASSERT_NE(Section, std::string::npos) << Kind;
    size_t Line = Text.find("- Thresholds (rules file): ", Section);
    ASSERT_NE(Line, std::string::npos) << Kind;
    std::string Said = Text.substr(Line, Text.find('\n', Line) - Line);
    for (const auto &[Name, Value] : Rule.Params) {
      char V[64];
      std::snprintf(V, sizeof(V), "%g", Value);
      size_t At = Said.find("`" + Name + "` ");
      ASSERT_NE(At, std::string::npos) << Kind << " " << Name << ": " << Said;
      double Doc = std::strtod(Said.c_str() + At + Name.size() + 3, nullptr);
      EXPECT_DOUBLE_EQ(Doc, Value) << Kind << " " << Name;
      ++Checked;
    }
  }
  EXPECT_GT(Checked, 30u);
}

// Only MPI's own shared-memory segments are left out: a data file under
// /dev/shm is the program's (staged data), and its file system is named.
TEST(Diagnose, DataUnderDevShmCounts) {
  Aggregate A = iorPosixShape();
  FileStat Staged = A.Files["/dev/shm/mpich_shar_tmpX"];
  A.Files.erase("/dev/shm/mpich_shar_tmpX");
  A.Files["/dev/shm/staged.dat"] = Staged;
  std::vector<Finding> Found = diagnoseWithDefaultRules(A);
  const Finding *Small = findingOf(Found, "small_requests");
  ASSERT_NE(Small, nullptr);
  ASSERT_FALSE(Small->Files.empty());
  EXPECT_EQ(Small->Files[0].Path, "/dev/shm/staged.dat");
  EXPECT_EQ(Small->Files[0].FsType, "tmpfs");
  // Open MPI's segments are left out as MPICH's are.
  Aggregate B = iorPosixShape();
  B.Files["/dev/shm/vader_segment.n1.0"] = B.Files["/dev/shm/mpich_shar_tmpX"];
  B.Files.erase("/dev/shm/mpich_shar_tmpX");
  Found = diagnoseWithDefaultRules(B);
  Small = findingOf(Found, "small_requests");
  ASSERT_NE(Small, nullptr);
  for (const FindingFile &FF : Small->Files)
    EXPECT_NE(FF.Path.rfind("/dev/shm/", 0), 0u) << FF.Path;
}

// Programs are named by their CONFIG records (the executable), else by the
// runtime's trace file names up to their hash: "my-run" and "my-test" are
// two programs, not one "my".
TEST(Diagnose, ProgramsAreNamedByConfigOrTheWholeTracePrefix) {
  DiagnosisRules Rules = shippedRules();
  auto twoPrograms = [](bool Config) {
    Aggregate A;
    A.FileNames = {Config ? "/t/trace-0123456789abcdef-app.pfw"
                          : "/t/my-run-0123456789abcdef-app.pfw",
                   Config ? "/t/trace-fedcba9876543210-app.pfw"
                          : "/t/my-test-fedcba9876543210-app.pfw"};
    for (size_t I = 0; I < 8; ++I) {
      ProcessStat P;
      P.Pid = static_cast<int64_t>(1000 + I);
      P.FileIndex = I < 4 ? 0 : 1;
      P.Rank = std::to_string(I % 4);
      P.Spans = 1;
      P.FirstUs = 0;
      P.LastUs = 1000000;
      P.Io.Once.Ops = 10;
      // my-run's ranks take 1 s each, my-test's 0.1 s: no imbalance.
      P.IoUnionUs = I < 4 ? 1000000 : 100000;
      if (Config) {
        P.Config.HasConfig = true;
        P.Config.Exe = I < 4 ? "/bin/my-run" : "/bin/my-test";
        P.Config.Argv = {P.Config.Exe};
      }
      A.Processes.push_back(P);
    }
    return A;
  };
  for (bool Config : {false, true}) {
    Aggregate A = twoPrograms(Config);
    Report R(A);
    ASSERT_EQ(R.Ranks.size(), 8u);
    EXPECT_EQ(R.Ranks[0].Label, "my-run:0") << Config;
    EXPECT_EQ(R.Ranks[4].Label, "my-test:0") << Config;
    EXPECT_TRUE(diagnose(R, Rules).empty()) << Config;
  }
  // One executable launched twice with other arguments: two programs.
  Aggregate Twice = twoPrograms(true);
  for (ProcessStat &P : Twice.Processes)
    if (P.Config.Exe == "/bin/my-test")
      P.Config.Exe = "/bin/my-run";
  for (size_t I = 4; I < 8; ++I)
    Twice.Processes[I].Config.Argv = {"/bin/my-run", "-r"};
  Report RT(Twice);
  EXPECT_EQ(RT.Ranks[0].Label, "my-run#1:0");
  EXPECT_EQ(RT.Ranks[4].Label, "my-run#2:0");
  EXPECT_TRUE(diagnose(RT, Rules).empty());
}

// --ledger: a finding's try settings looked up among dftracer-tune's
// trials, for the same program and file system only.
TEST(DiagnoseLedger, TrialsOfTheTrySettingsForThisProgramAndFs) {
  std::vector<Finding> F = kindOnly(hdf5Files("1", 24, 4), "hdf5_unaligned");
  ASSERT_EQ(F.size(), 1u);
  ASSERT_FALSE(F[0].Try.empty());
  std::string Setting = "DFTRACER_TUNE=" + F[0].Try[0];
  Aggregate A = hdf5Files("1", 24, 4);
  A.Processes[0].Config.HasConfig = true;
  A.Processes[0].Config.Exe = "/build/bin/writer";
  Report R(A);
  std::string Fs = A.Files.begin()->second.Fs.Type;
  LedgerTrial Slower;
  Slower.Id = 3;
  Slower.Date = "2026-06-25T10:00:00Z";
  Slower.Program = "/elsewhere/writer"; // the same program, rebuilt
  Slower.Ranks = 384;
  Slower.FsTypes = Fs;
  Slower.Setting = Setting + ";hdf5.meta_block_size=4096";
  Slower.Status = "slower";
  Slower.HasStats = true;
  Slower.ChangePercent = 29.04;
  Slower.P = 0.00794;
  LedgerTrial OtherProgram = Slower, OtherFs = Slower, OtherSetting = Slower,
              Failed = Slower;
  OtherProgram.Program = "/bin/reader";
  OtherFs.FsTypes = "lustre";
  OtherSetting.Setting = "DFTRACER_TUNE=hdf5.xfer=collective";
  Failed.Id = 4;
  Failed.Status = "failed";
  Failed.HasStats = false;
  Failed.Failure = "signal 11 in round 1";
  std::vector<Finding> Before = F;
  addLedgerTrials(F, R, {Slower, OtherProgram, OtherFs, OtherSetting, Failed});
  ASSERT_TRUE(F[0].LedgerRead);
  ASSERT_EQ(F[0].Ledger.size(), 2u);
  EXPECT_EQ(ledgerTrialText(F[0].Ledger[0]),
            F[0].Try[0] + ";hdf5.meta_block_size=4096 tried 2026-06-25 (#3), "
                          "384 ranks, " +
                Fs + ": +29.0%, slower, p = 0.00794");
  EXPECT_EQ(ledgerTrialText(F[0].Ledger[1]),
            F[0].Try[0] + ";hdf5.meta_block_size=4096 tried 2026-06-25 (#4), "
                          "384 ranks, " +
                Fs + ": failed (signal 11 in round 1)");
  // JSON: the "ledger" array only when a ledger was read.
  nlohmann::ordered_json J = findingsJson(F);
  ASSERT_TRUE(J[0].contains("ledger"));
  EXPECT_EQ(J[0]["ledger"].size(), 2u);
  EXPECT_EQ(J[0]["ledger"][0]["status"], "slower");
  EXPECT_EQ(J[0]["ledger"][1]["p"], nullptr);
  EXPECT_FALSE(findingsJson(Before)[0].contains("ledger"));
  std::ostringstream Text;
  printFindingsText(Text, F, "rules.json");
  EXPECT_NE(Text.str().find("   ledger: " + F[0].Try[0]), std::string::npos)
      << Text.str();
}
