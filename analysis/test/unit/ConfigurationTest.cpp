//===- ConfigurationTest.cpp - CONFIG, VERSION, MPI_JOB, tuning -----------===//
//
// Hand-written traces of two ranks of one program with the run's
// configuration records (issue 35), read as .pfw and as .pfc (encoded by
// the runtime's own encoder, as dftracer-convert --compact does), and the
// same traces without those records, which must read as before.
//
//===----------------------------------------------------------------------===//

#include "analyze/Configuration.h"
#include "analyze/Analysis.h"
#include "analyze/Caveats.h"
#include "analyze/FileAnalyzer.h"
#include "check/TraceReader.h"
#include "reader/MetadataRecords.h"
#include "report/ConfigurationOutput.h"
#include "report/Output.h"

extern "C" {
#include "compact_writer.h"
}

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <sys/uio.h>

using namespace dftanalyze;

namespace {

/// Rank R's trace: NODE, CONFIG, VERSION HDF5, a write on /x.h5 with its
/// FH, MPI_JOB, two tuning records (one applied, one ignored), one
/// process-wide invalid one, VERSION MPI, and trace_end as the last line
/// unless Killed (a process that ran no code at its end).
std::string traceText(int Rank, bool WithRecords, bool Killed = false) {
  std::string P = std::to_string(100 + Rank);
  auto Head = [&](int Id, const char *Name) {
    return std::string("{\"id\":") + std::to_string(Id) + ",\"name\":\"" +
           Name + "\",\"cat\":\"dftracer\",\"pid\":" + P + ",\"tid\":" + P +
           ",\"ph\":\"M\",\"args\":{";
  };
  std::ostringstream T;
  T << "[\n";
  T << Head(1, "NODE") << R"("hostname":"n1","mem_total":1000,"cpus":2}})"
    << "\n";
  if (WithRecords) {
    T << Head(2, "CONFIG")
      << R"("exe":"/bin/vpic","argv":["./vpic","-n","4","a b"],"argv_dropped":0,"cwd":"/run","env":{"DFTRACER_TUNE":"hdf5.alignment=4096,4096","ROMIO_HINTS":"/run/h"},"env_dropped":0,"glibc":"2.36"}})"
      << "\n";
    T << Head(3, "VERSION") << R"("library":"HDF5","version":"1.10.8"}})"
      << "\n";
  }
  T << "{\"id\":4,\"name\":\"FH\",\"cat\":\"dftracer\",\"pid\":" << P
    << ",\"tid\":" << P << R"(,"ph":"M","args":{"name":"/x.h5","value":77}})"
    << "\n";
  T << "{\"id\":5,\"name\":\"pwrite64\",\"cat\":\"POSIX\",\"pid\":" << P
    << ",\"tid\":" << P
    << R"(,"ts":10,"dur":5,"ph":"X","args":{"level":1,"p_idx":0,"fhash":77,"offset":0,"ret":4096}})"
    << "\n";
  T << "{\"id\":6,\"name\":\"CM\",\"cat\":\"dftracer\",\"pid\":" << P
    << ",\"tid\":" << P << R"(,"ph":"M","args":{"name":"rank","value":")"
    << Rank << "\"}}\n";
  if (WithRecords) {
    T << Head(7, "MPI_JOB") << "\"rank\":" << Rank << ",\"size\":2}}\n";
    T << Head(8, "tuning")
      << R"("fhash":77,"setting":"*.h5:hdf5.alignment=4096,4096","key":"hdf5.alignment","requested":"4096,4096","op":"set","source":"DFTRACER_TUNE","before":"1,1","effect":"4096,4096","status":"applied","reason":""}})"
      << "\n";
    T << Head(9, "tuning")
      << R"("fhash":77,"setting":"mpiio.romio_cb_write=enable","key":"mpiio.romio_cb_write","requested":"enable","op":"set","source":"DFTRACER_TUNE","before":"automatic","effect":"automatic","status":"ignored","reason":"MPI_File_get_info says automatic"}})"
      << "\n";
    T << Head(10, "tuning")
      << R"("setting":"hdf5.alignment=4k","key":"hdf5.alignment","requested":"4k","op":"set","source":"DFTRACER_TUNE","before":"","effect":"","status":"invalid","reason":"expected THRESHOLD,ALIGNMENT"}})"
      << "\n";
    T << Head(11, "VERSION")
      << R"("library":"MPI","version":"MPICH Version: 4.0.2"}})"
      << "\n";
    if (!Killed)
      T << Head(12, "trace_end") << R"("ts":30}})" << "\n";
  }
  return T.str();
}

std::string writeFile(const std::string &Name, const std::string &Text) {
  std::string Path = ::testing::TempDir() + "/" + Name;
  std::ofstream(Path, std::ios::binary) << Text;
  return Path;
}

void appendTo(void *Arg, struct iovec *Iov, int Count) {
  std::string *Out = static_cast<std::string *>(Arg);
  for (int I = 0; I < Count; ++I)
    Out->append(static_cast<const char *>(Iov[I].iov_base), Iov[I].iov_len);
}

/// Text as the runtime's compact encoder writes it (blocks stored: no
/// zstd), its "[" line being the compact header.
std::string compactOf(const std::string &Text) {
  std::string Out;
  dftracer_compact_zstd NoZstd{};
  dftracer_compact *C = dftracer_compact_start_with(&NoZstd, appendTo, &Out);
  EXPECT_NE(C, nullptr);
  std::string Body = Text.substr(Text.find('\n') + 1);
  dftracer_compact_feed(C, Body.data(), Body.size());
  dftracer_compact_finish(C);
  return Out;
}

/// The two ranks' traces, written as Ext (".pfw" or ".pfc").
std::vector<std::string> traces(const std::string &Tag, bool WithRecords,
                                const std::string &Ext, int KilledRank = -1) {
  std::vector<std::string> Files;
  for (int Rank = 0; Rank < 2; ++Rank) {
    std::string Text = traceText(Rank, WithRecords, Rank == KilledRank);
    Files.push_back(writeFile("vpic-" + Tag + std::to_string(Rank) + Ext,
                              Ext == ".pfc" ? compactOf(Text) : Text));
  }
  return Files;
}

Aggregate analyze(const std::vector<std::string> &Files) {
  Aggregate A = analyzeFiles(Files, {0, 1}, 1, AnalyzeOptions());
  A.FileNames = Files;
  A.finish();
  return A;
}

nlohmann::ordered_json reportOf(const std::vector<std::string> &Files) {
  Aggregate A = analyze(Files);
  Report R(A);
  return reportJson(R, OutputOptions());
}

} // namespace

TEST(ConfigurationRecords, DecodeEachKind) {
  std::string Text = traceText(1, true);
  dftrace::RecordDecoder D;
  dftrace::MetadataRecord M;
  std::istringstream Lines(Text);
  std::string Line;
  int Seen = 0;
  while (std::getline(Lines, Line)) {
    auto Name = [&](const char *N) {
      return Line.find(std::string("\"name\":\"") + N + "\"") !=
             std::string::npos;
    };
    if (Name("CONFIG")) {
      ASSERT_TRUE(D.decode(dftrace::RecordKind::Config, Line, M)) << D.error();
      EXPECT_EQ(M.Config.Exe, "/bin/vpic");
      EXPECT_EQ(M.Config.Argv,
                (std::vector<std::string>{"./vpic", "-n", "4", "a b"}));
      EXPECT_EQ(M.Config.Cwd, "/run");
      ASSERT_EQ(M.Config.Env.size(), 2u);
      EXPECT_EQ(M.Config.Env[1].first, "ROMIO_HINTS");
      EXPECT_EQ(M.Config.Glibc, "2.36");
      ++Seen;
    } else if (Name("MPI_JOB")) {
      ASSERT_TRUE(D.decode(dftrace::RecordKind::MpiJob, Line, M));
      EXPECT_EQ(M.MpiJob.Rank, 1u);
      EXPECT_EQ(M.MpiJob.Size, 2u);
      ++Seen;
    } else if (Name("tuning") && Line.find("invalid") != std::string::npos) {
      ASSERT_TRUE(D.decode(dftrace::RecordKind::Tuning, Line, M)) << D.error();
      EXPECT_FALSE(M.Tuning.HasFHash); // process-wide
      EXPECT_EQ(M.Tuning.Status, "invalid");
      ++Seen;
    }
  }
  EXPECT_EQ(Seen, 3);
  // A broken record names its key.
  EXPECT_FALSE(D.decode(dftrace::RecordKind::Config,
                        R"({"name":"CONFIG","args":{"exe":"/a","argv":"x"}})",
                        M));
  EXPECT_NE(D.error().find("\"argv\" is not an array"), std::string::npos)
      << D.error();
  EXPECT_FALSE(D.decode(dftrace::RecordKind::MpiJob,
                        R"({"name":"MPI_JOB","args":{"rank":0}})", M));
}

// Two ranks of one program: one program, 2 processes, 2 ranks (MPI_JOB),
// 1 node; its argv, env and versions; each tuning setting once with both
// ranks; the ignored and the invalid ones as the first caveats.
TEST(Configuration, OneProgramFromTwoRanks) {
  Aggregate A = analyze(traces("pfw", true, ".pfw"));
  EXPECT_EQ(A.issueTotal(), 0u);
  Report R(A);
  std::vector<ProgramConfig> P = programConfigs(R);
  ASSERT_EQ(P.size(), 1u);
  const ProgramConfig &G = P[0];
  EXPECT_TRUE(G.HasConfig);
  EXPECT_EQ(G.Exe, "/bin/vpic");
  EXPECT_EQ(shellWords(G.Argv), "./vpic -n 4 'a b'");
  EXPECT_EQ(G.Cwd, "/run");
  EXPECT_EQ(G.Processes, 2u);
  EXPECT_EQ(G.Ranks, 2u);
  EXPECT_EQ(G.Nodes, 1u);
  EXPECT_EQ(G.Versions.at("HDF5"), "1.10.8");
  EXPECT_EQ(G.Versions.at("MPI"), "MPICH Version: 4.0.2");
  EXPECT_EQ(G.Versions.at("glibc"), "2.36");
  ASSERT_EQ(G.Tuning.size(), 3u);
  for (const TuningRow &Row : G.Tuning)
    EXPECT_EQ(Row.Ranks, (std::vector<std::string>{"0", "1"}));
  EXPECT_EQ(G.Tuning[0].T.Path, ""); // process-wide first (by path)
  EXPECT_EQ(G.Tuning[1].T.Path, "/x.h5");

  std::vector<std::string> C = traceCaveats(R);
  ASSERT_GE(C.size(), 2u);
  EXPECT_EQ(C[0], "DFTRACER_TUNE hdf5.alignment=4k was invalid: expected "
                  "THRESHOLD,ALIGNMENT (2 processes)");
  EXPECT_EQ(C[1], "DFTRACER_TUNE mpiio.romio_cb_write=enable was ignored on "
                  "/x.h5: MPI_File_get_info says automatic (2 processes)");

  std::ostringstream Text;
  printText(Text, R, OutputOptions());
  EXPECT_EQ(Text.str().rfind("tuning not in effect: DFTRACER_TUNE "
                             "hdf5.alignment=4k was invalid",
                             0),
            0u)
      << Text.str();
  EXPECT_NE(Text.str().find("program /bin/vpic: 2 processes, 2 ranks, 1 node\n"
                            "  argv: ./vpic -n 4 'a b'\n"),
            std::string::npos)
      << Text.str();
  std::ostringstream Html;
  printHtml(Html, R, OutputOptions());
  EXPECT_NE(Html.str().find("<h2>Configuration</h2>"), std::string::npos);
}

TEST(Configuration, JsonSection) {
  nlohmann::ordered_json J = reportOf(traces("json", true, ".pfw"));
  ASSERT_TRUE(J.contains("configuration"));
  ASSERT_EQ(J["configuration"].size(), 1u);
  const auto &P = J["configuration"][0];
  EXPECT_EQ(P["exe"], "/bin/vpic");
  EXPECT_EQ(P["argv"], nlohmann::ordered_json({"./vpic", "-n", "4", "a b"}));
  EXPECT_EQ(P["env"]["ROMIO_HINTS"], "/run/h");
  EXPECT_EQ(P["versions"]["HDF5"], "1.10.8");
  EXPECT_EQ(P["ranks"], 2);
  EXPECT_EQ(P["nodes"], 1);
  ASSERT_EQ(P["tuning"].size(), 3u);
  EXPECT_EQ(P["tuning"][1]["file"], "/x.h5");
  EXPECT_EQ(P["tuning"][1]["status"], "applied");
  EXPECT_EQ(P["tuning"][1]["processes"], 2);
  ASSERT_EQ(J["tuning_caveats"].size(), 2u);
}

// The compact form carries the records as text lines: the same report.
TEST(Configuration, CompactReadsTheSame) {
  nlohmann::ordered_json Pfw = reportOf(traces("same", true, ".pfw"));
  nlohmann::ordered_json Pfc = reportOf(traces("same", true, ".pfc"));
  ASSERT_TRUE(Pfc.contains("configuration"));
  EXPECT_EQ(Pfw["configuration"], Pfc["configuration"]);
  EXPECT_EQ(Pfw["tuning_caveats"], Pfc["tuning_caveats"]);
}

// dftracer-check accepts the records, in both forms.
TEST(Configuration, CheckAcceptsTheRecords) {
  for (const char *Ext : {".pfw", ".pfc"}) {
    for (const std::string &Path : traces("check", true, Ext)) {
      dftcheck::TraceSet Set;
      dftcheck::readTraceFile(Path, Set);
      EXPECT_TRUE(Set.Problems.empty())
          << Path << ": "
          << (Set.Problems.empty() ? "" : Set.Problems[0].Message);
      EXPECT_EQ(Set.Records.size(), 9u) << Path; // NODE, CONFIG, ...
    }
  }
}

// A trace of this runtime (CONFIG) that lacks trace_end was not finished:
// dftracer-check and dftracer-analyze say so for that process only, at its
// last event's end, in both forms (issue 37).
TEST(Configuration, UnfinishedTraceIsSaid) {
  for (const char *Ext : {".pfw", ".pfc"}) {
    std::vector<std::string> Files =
        traces(std::string("killed") + (Ext + 1), true, Ext, 1);
    dftcheck::TraceSet Set;
    for (const std::string &Path : Files)
      dftcheck::readTraceFile(Path, Set);
    std::vector<const dftcheck::Record *> Unfinished;
    for (const dftcheck::Record &R : Set.Records)
      if (R.R.Kind == dftrace::RecordKind::TraceStopped &&
          R.R.Stopped.Reason == "unfinished")
        Unfinished.push_back(&R);
    ASSERT_EQ(Unfinished.size(), 1u) << Ext;
    EXPECT_EQ(Unfinished[0]->Pid, 101) << Ext;
    EXPECT_EQ(Unfinished[0]->R.Stopped.TsUs, 15) << Ext; // ts 10 + dur 5
    EXPECT_TRUE(Set.Problems.empty()) << Ext;

    Aggregate A = analyze(Files);
    Report R(A);
    nlohmann::ordered_json J = reportJson(R, OutputOptions());
    ASSERT_EQ(J["trace_stopped"].size(), 1u) << Ext;
    EXPECT_EQ(J["trace_stopped"][0]["reason"], "unfinished");
    EXPECT_EQ(J["trace_stopped"][0]["pid"], 101);
    EXPECT_EQ(J["trace_stopped"][0]["ts"], 15);
    std::ostringstream Text;
    printText(Text, R, OutputOptions());
    EXPECT_NE(Text.str().find("trace unfinished: "), std::string::npos)
        << Text.str();
    std::vector<std::string> C = traceCaveats(R);
    EXPECT_TRUE(std::any_of(C.begin(), C.end(), [](const std::string &S) {
      return S.find("1 processes' traces end without finishing") == 0;
    }));
  }
  // Both finished: nothing said.
  Aggregate A = analyze(traces("finished", true, ".pfw"));
  Report R(A);
  EXPECT_TRUE(reportJson(R, OutputOptions())["trace_stopped"].empty());
}

// A trace without the records reads as before: no section, no caveat, and
// every other key the same but the counts of lines and metadata events.
TEST(Configuration, TraceWithoutTheRecordsReadsAsBefore) {
  nlohmann::ordered_json Old = reportOf(traces("old", false, ".pfw"));
  nlohmann::ordered_json New = reportOf(traces("new", true, ".pfw"));
  EXPECT_FALSE(Old.contains("configuration"));
  EXPECT_FALSE(Old.contains("tuning_caveats"));
  for (const char *Key : {"configuration", "tuning_caveats", "events", "lines",
                          "text_bytes", "metadata_events"})
    Old.erase(Key), New.erase(Key);
  // Trace file names differ ("old"/"new"): compare what is not a path.
  for (auto *J : {&Old, &New}) {
    J->erase("ranks");
    J->erase("caveats");
  }
  EXPECT_EQ(Old.dump(), New.dump());
  Aggregate A = analyze(traces("old2", false, ".pfw"));
  Report R(A);
  std::ostringstream Text;
  printText(Text, R, OutputOptions());
  EXPECT_EQ(Text.str().find("Configuration"), std::string::npos);
  EXPECT_TRUE(A.Processes[0].Config.empty());
}
