//===- JsonWriterTest.cpp - Tests of json_writer.c ------------------------===//

extern "C" {
#include "json_writer.h"
}

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>

namespace {

std::string u64(uint64_t V) {
  char Buf[64];
  char *End = dftracer_put_u64(Buf, V);
  return std::string(Buf, End);
}

std::string i64(int64_t V) {
  char Buf[64];
  char *End = dftracer_put_i64(Buf, V);
  return std::string(Buf, End);
}

std::string str(const std::string &S) {
  std::string Buf(dftracer_json_string_bound(S.size()), '\0');
  char *End = dftracer_put_string(&Buf[0], S.data(), S.size());
  Buf.resize(static_cast<size_t>(End - &Buf[0]));
  return Buf;
}

TEST(JsonWriter, UnsignedAtEveryDigitCount) {
  uint64_t V = 1;
  for (int Digits = 1; Digits <= 20; ++Digits) {
    EXPECT_EQ(u64(V), std::to_string(V));
    EXPECT_EQ(u64(V - 1), std::to_string(V - 1));
    if (Digits < 20)
      V *= 10;
  }
  EXPECT_EQ(u64(0), "0");
  EXPECT_EQ(u64(99999999), "99999999");
  EXPECT_EQ(u64(100000000), "100000000");
  EXPECT_EQ(u64(1796019296197382ull), "1796019296197382"); // a timestamp
  EXPECT_EQ(u64(std::numeric_limits<uint64_t>::max()), "18446744073709551615");
}

TEST(JsonWriter, UnsignedSweepMatchesPrintf) {
  // Every value below 10^6 and a stride through the 8- and 16-digit ranges
  // that cuts across every lane of the digit splitting.
  char Expected[32];
  auto Check = [&](uint64_t V) {
    std::snprintf(Expected, sizeof(Expected), "%llu",
                  static_cast<unsigned long long>(V));
    ASSERT_EQ(u64(V), Expected);
  };
  for (uint64_t V = 0; V < 1000000; ++V)
    Check(V);
  for (uint64_t V = 1000000; V < 100000000; V += 997)
    Check(V);
  for (uint64_t V = 1796019296197382ull; V < 1796019296197382ull + 10000000;
       V += 1009)
    Check(V);
}

TEST(JsonWriter, SignedExtremes) {
  EXPECT_EQ(i64(-1), "-1");
  EXPECT_EQ(i64(std::numeric_limits<int64_t>::min()), "-9223372036854775808");
  EXPECT_EQ(i64(std::numeric_limits<int64_t>::max()), "9223372036854775807");
}

TEST(JsonWriter, EscapesQuotesBackslashesAndControls) {
  EXPECT_EQ(str("plain"), "\"plain\"");
  EXPECT_EQ(str("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(str("tab\there\nnl"), "\"tab\\there\\nnl\"");
  EXPECT_EQ(str(std::string("\x01\x1f", 2)), "\"\\u0001\\u001f\"");
  EXPECT_EQ(str(std::string("nul\0in", 6)), "\"nul\\u0000in\"");
}

TEST(JsonWriter, KeepsValidUtf8AndReplacesInvalidBytes) {
  EXPECT_EQ(str("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
            "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
  EXPECT_EQ(str("bad\xff"), "\"bad\\ufffd\"");
  EXPECT_EQ(str("\xc3"), "\"\\ufffd\"");            // truncated sequence
  EXPECT_EQ(str("\xc0\xaf"), "\"\\ufffd\\ufffd\""); // overlong '/'
  EXPECT_EQ(str("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\""); // surrogate
}

TEST(JsonWriter, EveryByteStringParsesBack) {
  // Whatever an application passes as an UPDATE value, the line stays JSON.
  std::string All;
  for (int C = 0; C < 256; ++C)
    All.push_back(static_cast<char>(C));
  std::string Quoted = str(All);
  nlohmann::json Parsed = nlohmann::json::parse(Quoted);
  ASSERT_TRUE(Parsed.is_string());
  EXPECT_EQ(Parsed.get<std::string>().substr(0, 128), All.substr(0, 128));
}

} // namespace
