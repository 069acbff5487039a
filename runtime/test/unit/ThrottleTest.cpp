//===- ThrottleTest.cpp - The counted calls' lines and byte rule ----------===//
//
// The `throttled` and `trace_stopped` lines have exactly the shape of the
// shared contract (docs/trace-format.md), and the bytes of an I/O call
// that was only counted follow the same rule as an event's.
//
//===----------------------------------------------------------------------===//

extern "C" {
#include "event_format.h"
#include "throttle.h"
}

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstring>
#include <string>
#include <vector>

namespace {

using nlohmann::json;

TEST(Throttle, ThrottledLine) {
  const char Name[] = "uniform_\"random\"_number";
  std::vector<char> Buf(dftracer_throttled_line_bound(sizeof(Name) - 1, 5));
  char *End = dftracer_format_throttled(Buf.data(), 9, 41, 42, Name,
                                        sizeof(Name) - 1, "C_APP", 5, 4094304,
                                        812345, 0, "throttle", 0);
  ASSERT_LE(static_cast<size_t>(End - Buf.data()), Buf.size());
  std::string Line(Buf.data(), End);
  ASSERT_EQ(Line.back(), '\n');
  json J = json::parse(Line);
  EXPECT_EQ(J["id"], 9);
  EXPECT_EQ(J["name"], "throttled");
  EXPECT_EQ(J["cat"], "dftracer");
  EXPECT_EQ(J["pid"], 41);
  EXPECT_EQ(J["tid"], 42);
  EXPECT_EQ(J["ph"], "M");
  EXPECT_EQ(J["args"], json::parse(R"({"function":"uniform_\"random\"_number",
    "fcat":"C_APP","calls":4094304,"dur":812345,"bytes":0,
    "reason":"throttle"})"));
}

// Sampled time (DFTRACER_THROTTLE_TIME=sampled): the same record, saying
// that dur is an estimate and from how many timed calls.
TEST(Throttle, SampledThrottledLine) {
  std::vector<char> Buf(dftracer_throttled_line_bound(5, 5));
  char *End = dftracer_format_throttled(Buf.data(), 9, 41, 42, "tiny_", 5,
                                        "C_APP", 5, 4094304, 812345, 0,
                                        "throttle", 127947);
  ASSERT_LE(static_cast<size_t>(End - Buf.data()), Buf.size());
  json J = json::parse(std::string(Buf.data(), End));
  EXPECT_EQ(J["args"], json::parse(R"({"function":"tiny_","fcat":"C_APP",
    "calls":4094304,"dur":812345,"bytes":0,"reason":"throttle",
    "time":"sampled","timed":127947})"));
}

// Sampled time's estimate (throttle.c): the timed calls' mean x calls; a
// timed call beyond the outlier bound (a preemption) counts once, as
// measured, while fewer than 16 were seen, and in proportion from then on.
TEST(Throttle, SampledEstimate) {
  dftracer_left L = {};
  dftracer_sampled S = {};
  L.Calls = 3200;
  S.Timed = 100;
  S.TimedNs = 100 * 50; // 50 ns each
  EXPECT_EQ(dftracer_throttle_sampled_us(&L, &S), 160u);
  // One of the 100 took 2 ms: 3199 calls at 50 ns, plus that one (not 32
  // of it: 64 ms).
  S.TimedNs = 99 * 50;
  S.Long = 1;
  S.LongNs = 2000000;
  EXPECT_EQ(dftracer_throttle_sampled_us(&L, &S), 2160u);
  // 16 of 100: common, so they stand for 16 % of the calls.
  S.TimedNs = 84 * 50;
  S.Long = 16;
  S.LongNs = 16 * 200000; // 200 us each
  EXPECT_EQ(dftracer_throttle_sampled_us(&L, &S),
            (84u * 50 + 16u * 200000) * 32 / 1000);
  // Only outliers timed: their mean.
  S.Timed = 2;
  S.Long = 2;
  S.TimedNs = 0;
  S.LongNs = 400000;
  EXPECT_EQ(dftracer_throttle_sampled_us(&L, &S), 3200u * 200);
}

TEST(Throttle, TraceStoppedLine) {
  char Buf[DftTraceStoppedBound];
  char *End = dftracer_format_trace_stopped(Buf, 3, 41, 42, "write_error",
                                            1073741824, 1073741100,
                                            1718000000000123ull, "ENOSPC");
  json J = json::parse(std::string(Buf, End));
  EXPECT_EQ(J["name"], "trace_stopped");
  EXPECT_EQ(J["args"], json::parse(R"({"reason":"write_error",
    "limit":1073741824,"written":1073741100,"ts":1718000000000123,
    "error":"ENOSPC"})"));
  End = dftracer_format_trace_stopped(Buf, 3, 41, 42, "size_limit", 1, 2, 3,
                                      nullptr);
  EXPECT_FALSE(json::parse(std::string(Buf, End))["args"].contains("error"));
}

uint64_t bytes(const char *Name, const char *Cat, const char *Args) {
  return dftracer_io_event_bytes(Name, Cat, Args, std::strlen(Args));
}

// docs/trace-format.md, "Bytes moved by a data call".
TEST(Throttle, IoBytesRule) {
  EXPECT_EQ(bytes("pwrite64", "POSIX", ",\"fd\":3,\"count\":10,\"ret\":7"), 7u);
  EXPECT_EQ(bytes("read", "POSIX", ",\"fd\":3,\"count\":10,\"ret\":-1"), 0u);
  EXPECT_EQ(bytes("aio_write", "POSIX", ",\"count\":4096,\"ret\":0"), 4096u);
  // The request's bytes were counted at aio_write.
  EXPECT_EQ(bytes("aio_return", "POSIX", ",\"count\":4096,\"ret\":4096"), 0u);
  EXPECT_EQ(bytes("fwrite", "STDIO", ",\"size\":8,\"count\":4,\"ret\":3"), 24u);
  EXPECT_EQ(bytes("MPI_File_write_at_all", "MPIIO",
                  ",\"count\":4,\"bytes\":4096,\"ret\":0"),
            4096u);
  EXPECT_EQ(bytes("MPI_File_read", "MPIIO", ",\"bytes\":4096,\"ret\":13"), 0u);
  EXPECT_EQ(bytes("H5Dwrite", "HDF5", ",\"bytes\":800,\"ret\":0"), 800u);
  EXPECT_EQ(bytes("H5Dwrite", "HDF5", ",\"bytes\":800,\"ret\":-1"), 0u);
  EXPECT_EQ(bytes("open64", "POSIX", ",\"flags\":0,\"ret\":3"), 0u);
  EXPECT_EQ(bytes("readlink", "POSIX", ",\"ret\":12"), 0u);
  // A function's span with UPDATE args is not I/O.
  EXPECT_EQ(bytes("write_chunk", "C_APP", ",\"ret\":12"), 0u);
}

} // namespace
