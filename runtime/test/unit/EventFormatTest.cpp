//===- EventFormatTest.cpp - Tests of event_format.c ----------------------===//
//
// Every line the runtime writes must be one JSON object with exactly the
// fields of SPEC 5.4.
//
//===----------------------------------------------------------------------===//

extern "C" {
#include "event_format.h"
}

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstring>
#include <string>
#include <vector>

namespace {

using nlohmann::json;

// The line of a span named Name in category Cat; InPlace: the name and
// category formatted in place (dftracer_format_span_named, as the runtime
// does for names too long for its cache) instead of preformatted.
std::string spanLine(const char *Name, const char *Cat, const char *Args,
                     bool InPlace = false) {
  size_t NameLen = std::strlen(Name), CatLen = std::strlen(Cat);
  std::vector<char> NameCat(dftracer_name_cat_bound(NameLen, CatLen));
  char PidTid[64];
  char *NameCatEnd =
      dftracer_format_name_cat(NameCat.data(), Name, NameLen, Cat, CatLen);
  char *PidTidEnd = dftracer_format_pid_tid(PidTid, 41, 42);
  dftracer_span_line L{};
  L.Id = 7;
  L.ParentId = 3;
  L.Ts = 1796019296197382ull;
  L.Dur = 52;
  L.Level = 2;
  L.NameCat = InPlace ? nullptr : NameCat.data();
  L.NameCatLen = InPlace ? NameCat.size()
                         : static_cast<size_t>(NameCatEnd - NameCat.data());
  L.PidTid = PidTid;
  L.PidTidLen = static_cast<size_t>(PidTidEnd - PidTid);
  L.Args = Args;
  L.ArgsLen = Args ? std::strlen(Args) : 0;
  std::string Buf(dftracer_span_line_bound(&L), '\0');
  char *End = InPlace ? dftracer_format_span_named(&Buf[0], &L, Name, NameLen,
                                                   Cat, CatLen)
                      : dftracer_format_span(&Buf[0], &L);
  EXPECT_LE(End - &Buf[0], static_cast<ptrdiff_t>(Buf.size()));
  Buf.resize(static_cast<size_t>(End - &Buf[0]));
  return Buf;
}

TEST(EventFormat, SpanLineIsSpecFormat) {
  std::string Line = spanLine("write_data", "C_APP", nullptr);
  EXPECT_EQ(Line, "{\"id\":7,\"name\":\"write_data\",\"cat\":\"C_APP\","
                  "\"pid\":41,\"tid\":42,\"ts\":1796019296197382,\"dur\":52,"
                  "\"ph\":\"X\",\"args\":{\"level\":2,\"p_idx\":3}}\n");
  json J = json::parse(Line);
  EXPECT_EQ(J.size(), 9u);
}

TEST(EventFormat, NamedSpanLineIsTheSameText) {
  // A name too long for the runtime's cache is formatted in place: the line
  // must be the one a preformatted NameCat gives, escapes included, within
  // the bound computed from dftracer_name_cat_bound.
  std::string Name(3000, 'n');
  Name += "\"quoted\"\\";
  std::string Line = spanLine(Name.c_str(), "CPP_APP", ",\"k\":1", true);
  EXPECT_EQ(Line, spanLine(Name.c_str(), "CPP_APP", ",\"k\":1"));
  EXPECT_EQ(json::parse(Line)["name"], Name);
}

TEST(EventFormat, DigitCachesDoNotChangeTheText) {
  // A thread's lines formatted with its digit caches, as the runtime does,
  // against the same lines without: ids and timestamps step across the
  // 10^4 boundaries where the cached prefix changes, and jump back.
  char PidTid[64];
  char *PidTidEnd = dftracer_format_pid_tid(PidTid, 41, 42);
  const char NameCat[] = "\"name\":\"f\",\"cat\":\"C_APP\",";
  dftracer_digit_cache TsDigits{}, IdDigits{};
  uint64_t Ts = 1796019296187000ull, Id = 9000;
  for (int I = 0; I < 30000; ++I) {
    dftracer_span_line L{};
    L.Id = Id;
    L.ParentId = I % 7 == 0 ? 0 : Id - static_cast<uint64_t>(I % 5000);
    L.Ts = Ts;
    L.Dur = static_cast<uint64_t>(I % 123457);
    L.Level = 1 + I % 4;
    L.NameCat = NameCat;
    L.NameCatLen = sizeof(NameCat) - 1;
    L.PidTid = PidTid;
    L.PidTidLen = static_cast<size_t>(PidTidEnd - PidTid);
    std::string Plain(dftracer_span_line_bound(&L), '\0');
    Plain.resize(static_cast<size_t>(dftracer_format_span(&Plain[0], &L) -
                                     &Plain[0]));
    L.TsDigits = &TsDigits;
    L.IdDigits = &IdDigits;
    std::string Cached(dftracer_span_line_bound(&L), '\0');
    Cached.resize(static_cast<size_t>(dftracer_format_span(&Cached[0], &L) -
                                      &Cached[0]));
    ASSERT_EQ(Cached, Plain) << "at line " << I;
    Ts += I % 1000 == 999 ? 123456789 : 7; // an occasional long gap
    Id = I % 9000 == 8999 ? 5 : Id + 1;    // a new block of small ids
  }
}

TEST(EventFormat, UpdatesFollowLevelAndParent) {
  char Args[256];
  char *End = dftracer_format_arg_int(Args, "bytes", 1048576);
  End = dftracer_format_arg_str(End, "file", "/tmp/\"x\"");
  End = dftracer_format_arg_int(End, "neg", -5);
  *End = '\0';
  json J = json::parse(spanLine("f", "C_APP", Args));
  EXPECT_EQ(J["args"]["level"], 2);
  EXPECT_EQ(J["args"]["p_idx"], 3);
  EXPECT_EQ(J["args"]["bytes"], 1048576);
  EXPECT_EQ(J["args"]["file"], "/tmp/\"x\"");
  EXPECT_EQ(J["args"]["neg"], -5);
}

TEST(EventFormat, NamesNeedingEscapesStayJson) {
  json J = json::parse(spanLine("operator\"\"_x<\\>", "CPP_APP", nullptr));
  EXPECT_EQ(J["name"], "operator\"\"_x<\\>");
  EXPECT_EQ(J["cat"], "CPP_APP");
}

TEST(EventFormat, MetadataLine) {
  char Buf[512];
  ASSERT_LE(dftracer_metadata_line_bound(4, 1), sizeof(Buf));
  char *End = dftracer_format_metadata(Buf, 1, 41, 42, "rank", "0");
  std::string Line(Buf, End);
  EXPECT_EQ(Line, "{\"id\":1,\"name\":\"CM\",\"cat\":\"dftracer\",\"pid\":41,"
                  "\"tid\":42,\"ph\":\"M\",\"args\":{\"name\":\"rank\","
                  "\"value\":\"0\"}}\n");
}

// docs/trace-format.md: the value is the unquoted hash; the path is an
// escaped JSON string.
TEST(EventFormat, FileHashLine) {
  const char Path[] = "/scratch/a \"b\".h5";
  std::vector<char> Buf(dftracer_fh_line_bound(sizeof(Path) - 1));
  char *End = dftracer_format_fh(Buf.data(), 11, 41, 42, Path,
                                 sizeof(Path) - 1, 9007199254740991ull);
  ASSERT_LE(static_cast<size_t>(End - Buf.data()), Buf.size());
  EXPECT_EQ(std::string(Buf.data(), End),
            "{\"id\":11,\"name\":\"FH\",\"cat\":\"dftracer\",\"pid\":41,"
            "\"tid\":42,\"ph\":\"M\",\"args\":{\"name\":"
            "\"/scratch/a \\\"b\\\".h5\",\"value\":9007199254740991}}\n");
}

} // namespace
