//===- ReaderTest.cpp - Tests of the shared trace reader ------------------===//

#include "reader/EventCheck.h"
#include "reader/EventParser.h"
#include "reader/IoTaxonomy.h"
#include "reader/LineReader.h"
#include "reader/PlainLineParser.h"
#include "reader/TraceScanner.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

using namespace dftrace;

std::string tempPath(const std::string &Name) {
  return ::testing::TempDir() + "/reader-" + Name;
}

void writeGzipMembers(const std::string &Path,
                      const std::vector<std::string> &Members) {
  std::remove(Path.c_str());
  for (const std::string &M : Members) {
    gzFile Z = gzopen(Path.c_str(), "ab");
    gzwrite(Z, M.data(), static_cast<unsigned>(M.size()));
    gzclose(Z);
  }
}

std::vector<std::string> readLines(const std::string &Path, std::string &Error,
                                   size_t Chunk = 1 << 20) {
  LineReader R(Path, Chunk);
  std::vector<std::string> Out;
  if (!R.open(Error))
    return Out;
  Line L;
  while (R.next(L)) {
    EXPECT_GE(L.Capacity, L.Size + LineReader::Padding);
    Out.emplace_back(L.Data, L.Size);
  }
  Error = R.error();
  return Out;
}

TEST(LineReader, GzipMembersJoinAndLinesSpanThem) {
  std::string P = tempPath("members.pfw.gz");
  writeGzipMembers(P, {"[\n{\"a\":1}\n{\"b\"", ":2}\n", "{\"c\":3}\r\n"});
  std::string Error;
  std::vector<std::string> Lines = readLines(P, Error);
  EXPECT_EQ(Error, "");
  EXPECT_EQ(Lines, (std::vector<std::string>{"[", "{\"a\":1}", "{\"b\":2}",
                                             "{\"c\":3}"}));
}

TEST(LineReader, TruncatedGzipKeepsWhatWasDecoded) {
  std::string P = tempPath("cut.pfw.gz");
  std::string Text = "[\n";
  for (int I = 0; I < 2000; ++I)
    Text += "{\"id\":" + std::to_string(I) + ",\"name\":\"x\"}\n";
  writeGzipMembers(P, {Text});
  std::ifstream In(P, std::ios::binary);
  std::string Bytes((std::istreambuf_iterator<char>(In)), {});
  std::ofstream(P, std::ios::binary) << Bytes.substr(0, Bytes.size() / 2);
  std::string Error;
  std::vector<std::string> Lines = readLines(P, Error);
  EXPECT_NE(Error.find("truncated"), std::string::npos) << Error;
  EXPECT_GT(Lines.size(), 10u);
  EXPECT_LT(Lines.size(), 2001u);
}

TEST(LineReader, LinesLongerThanTheBufferAndNoFinalNewline) {
  std::string P = tempPath("long.pfw");
  std::string Long(5000, 'x');
  std::ofstream(P) << "[\n" << Long << "\nlast";
  std::string Error;
  std::vector<std::string> Lines = readLines(P, Error, /*Chunk=*/64);
  EXPECT_EQ(Lines, (std::vector<std::string>{"[", Long, "last"}));
}

TEST(LineReader, MissingFileSaysWhy) {
  LineReader R(tempPath("does-not-exist"));
  std::string Error;
  EXPECT_FALSE(R.open(Error));
  EXPECT_NE(Error.find("cannot open"), std::string::npos);
}

TEST(EventParser, BrokenLineDoesNotAffectTheNext) {
  EventParser P;
  Event E;
  std::string Bad = "{\"id\":1,\"name\":\"a" + std::string(64, ' ');
  EXPECT_FALSE(P.parse(Bad.data(), 17, Bad.size(), E));
  std::string Good = "{\"id\":2,\"name\":\"b\",\"args\":{\"fhash\":18446744073709551615}}" +
                     std::string(64, ' ');
  ASSERT_TRUE(P.parse(Good.data(), Good.size() - 64, Good.size(), E));
  EXPECT_EQ(E.Id.I, 2);
  EXPECT_EQ(E.Name.S, "b");
  EXPECT_EQ(E.FHash.U, 18446744073709551615ull);
  EXPECT_TRUE(E.FHash.isUnsigned());
}

/// One event line, parsed; E's strings point into Text and P, so the
/// three live together.
struct ParsedLine {
  std::string Text;
  EventParser P;
  Event E;
  explicit ParsedLine(const std::string &Line)
      : Text(Line + std::string(64, ' ')) { // the parser's padding
    EXPECT_TRUE(P.parse(Text.data(), Line.size(), Text.size(), E)) << Line;
  }
};

/// Issue 22's per-event keys (docs/trace-format.md) reach their fields, a
/// hex dhash becomes the integer it spells (as fhash), and a line without
/// them leaves them missing.
TEST(EventParser, IssueTwentyTwoEventKeys) {
  ParsedLine W(R"({"id":1,"name":"write","ph":"X","args":{"fhash":7,)"
               R"("offset":4096,"append":1,"count":10,"mem_align":4,"ret":10}})");
  EXPECT_EQ(W.E.Append.I, 1);
  EXPECT_EQ(W.E.Offset.I, 4096);
  EXPECT_EQ(W.E.MemAlign.I, 4);
  ParsedLine H(R"({"id":2,"name":"H5Dwrite","ph":"X","args":{"fhash":7,)"
               R"("dhash":"00000000000000ff","xfer":"collective",)"
               R"("io_mode":"mixed","selection":1048576}})");
  EXPECT_TRUE(H.E.DHash.isUnsigned());
  EXPECT_EQ(H.E.DHash.U, 255u);
  EXPECT_EQ(H.E.Xfer.S, "collective");
  EXPECT_EQ(H.E.IoMode.S, "mixed");
  EXPECT_EQ(H.E.Selection.I, 1048576);
  ParsedLine V(R"({"id":3,"name":"MPI_File_set_view","ph":"X","args":{)"
               R"("etype_size":8,"filetype_size":64,"filetype_extent":256,)"
               R"("contiguous":0}})");
  EXPECT_EQ(V.E.EtypeSize.I, 8);
  EXPECT_EQ(V.E.FiletypeSize.I, 64);
  EXPECT_EQ(V.E.FiletypeExtent.I, 256);
  ASSERT_TRUE(V.E.Contiguous.isInteger());
  EXPECT_EQ(V.E.Contiguous.I, 0);
  // The same parser, a line without them: nothing left from the last one.
  std::string Plain = R"({"id":4,"name":"read","ph":"X","args":{"ret":1}})" +
                      std::string(64, ' ');
  ASSERT_TRUE(V.P.parse(Plain.data(), Plain.size() - 64, Plain.size(), V.E));
  for (const Field *F : {&V.E.Append, &V.E.DHash, &V.E.Xfer, &V.E.IoMode,
                         &V.E.Selection, &V.E.EtypeSize, &V.E.FiletypeSize,
                         &V.E.FiletypeExtent, &V.E.Contiguous, &V.E.MemAlign})
    EXPECT_FALSE(F->present());
}

/// Line, parsed by EventParser as the reader does and with the DOM parser
/// only: the same answer, the same fields. Padding after the line is
/// digits and quotes, so a read past the line's end would show.
void expectSameAsDom(const std::string &Line) {
  std::string Text = Line + std::string(64, '7');
  Text[Line.size() + 3] = '"';
  EventParser Plain, Dom;
  Dom.usePlainParser(false);
  Event A, B;
  bool PlainOk = Plain.parse(Text.data(), Line.size(), Text.size(), A);
  bool DomOk = Dom.parse(Text.data(), Line.size(), Text.size(), B);
  EXPECT_EQ(PlainOk, DomOk) << Line;
  if (PlainOk && DomOk) {
    EXPECT_TRUE(A.sameAs(B)) << Line;
  }
  if (!PlainOk && !DomOk) {
    EXPECT_EQ(Plain.error(), Dom.error()) << Line;
  }
}

/// The one-pass reader takes the runtime's lines itself (else the parse
/// would be no faster), and whatever it takes or leaves, the fields are
/// the DOM parser's: numbers at the edges of its subset, escapes and
/// non-ASCII bytes, nesting, and broken lines.
TEST(EventParser, PlainLinesReadAsTheDomParserReadsThem) {
  const std::string Runtime[] = {
      R"({"id":15,"name":"pwrite64","cat":"POSIX","pid":27000,"tid":27000,)"
      R"("ts":1796172333000023,"dur":3,"ph":"X","args":{"level":5,"p_idx":14,)"
      R"("fhash":4503599627370496,"fd":8,"count":10485761,"ret":10485761}})",
      R"({"id":2,"name":"FH","cat":"dftracer","pid":27000,"tid":27000,)"
      R"("ph":"M","args":{"name":"/scratch/run/file0.dat","value":45035996}})",
      R"({"id":3,"name":"lseek64","cat":"POSIX","pid":-1,"tid":0,"ts":0,)"
      R"("dur":0,"ph":"X","args":{"fd":3,"offset":-4096,"whence":2,"ret":-1}})",
      R"( { "id" : 1 ,	"name":"a b" , "args" : { } } )",
      R"({"id":1, "name":"a","args":{"level":1, "p_idx":0}})",
      // Upstream v1's host hash: a uint64 of 20 digits.
      R"({"id":1,"name":"PR","cat":"dftracer","pid":4000,"tid":4000,)"
      R"("ph":"M","args":{"hhash":12345678901234567890,"name":"rank",)"
      R"("value":"0"}})",
      R"({"id":9223372036854775807,"pid":9223372036854775808})",
      R"({})",
  };
  for (const std::string &L : Runtime) {
    std::string Text = L + std::string(64, ' ');
    Event E;
    EXPECT_TRUE(parsePlainLine(Text.data(), L.size(), E)) << L;
    expectSameAsDom(L);
  }
  const std::string Edges[] = {
      // Numbers: 18 digits are the subset's, 19 and more the DOM's.
      R"({"id":999999999999999999})", R"({"id":1000000000000000000})",
      R"({"id":9223372036854775807})", R"({"id":9223372036854775808})",
      R"({"id":18446744073709551615})", R"({"id":18446744073709551616})",
      R"({"id":-999999999999999999})", R"({"id":-9223372036854775808})",
      R"({"id":-9223372036854775809})", R"({"id":-0})", R"({"id":0})",
      R"({"id":10000000000000000000})", R"({"id":99999999999999999999})",
      R"({"id":100000000000000000000})", R"({"id":-1000000000000000000})",
      R"({"id":01})", R"({"id":-})", R"({"id":1.5})", R"({"id":1e3})",
      R"({"id":1E-3})", R"({"id":12345678.5})", R"({"id":1234567812345678.})",
      R"({"id":+1})", R"({"id":1x})", R"({"id":12345678x})",
      R"({"dur":"1"})", R"({"ts":true,"dur":false,"pid":null})",
      // Strings: escapes, non-ASCII, control bytes, DEL.
      R"({"name":"a\"b"})", R"({"name":"a\\"})", R"({"name":"\u00e9"})",
      "{\"name\":\"caf\xc3\xa9\"}", "{\"name\":\"\xff\"}",
      "{\"name\":\"a\tb\"}", "{\"name\":\"a\x7f" "b\"}",
      R"({"name":"12345678901234567890123456789"})", R"({"na\u006de":"x"})",
      R"({"name":"unterminated)", R"({"name":"ends at 8"})",
      // Nesting, args of other types, upstream's cfg, duplicated keys.
      R"({"args":{"level":[1,[2,{"a":[]}]],"x":{"y":{"z":null}}}})",
      R"({"args":"text"})", R"({"args":7})", R"({"args":[1,2]})",
      R"({"args":{"cfg":{"time_metric":"ns"}}})",
      R"({"id":1,"id":2,"args":{"ret":1},"args":{"fd":3}})",
      R"({"id":[1,2],"name":{"a":1}})",
      std::string(40, '[') + std::string(40, ']'),
      R"({"args":)" + std::string(40, '[') + std::string(40, ']') + "}",
      // Broken lines: each gets the DOM parser's message.
      R"({"id":1,})", R"({"id":1)", R"({"id" 1})", R"({"id":1}x)",
      R"({"id":1} {"id":2})", R"({id:1})", R"([1,2])", R"("a")", R"(1)",
      R"()", R"(   )", R"({"args":{"a":1,}})", R"({"args":[1,]})",
      R"({"a":tru})", R"({"a":nul})", R"({"a":falsey})", R"({"a":[1 2]})",
      R"({"a":{"b" 1}})", R"({"a":{1:2}})", R"({"a":})", R"({,})",
  };
  for (const std::string &L : Edges)
    expectSameAsDom(L);
}

/// Line as EventParser and the DOM parser read it when the bytes after
/// it are After (64 readable at least): the same answer, the same fields.
void expectSameAsDomWith(const std::string &Line, const std::string &After) {
  std::string Text = Line + After + std::string(64, ' ');
  EventParser Plain, Dom;
  Dom.usePlainParser(false);
  Event A, B;
  bool PlainOk = Plain.parse(Text.data(), Line.size(), Text.size(), A);
  bool DomOk = Dom.parse(Text.data(), Line.size(), Text.size(), B);
  EXPECT_EQ(PlainOk, DomOk) << Line << " | " << After;
  if (PlainOk && DomOk) {
    EXPECT_TRUE(A.sameAs(B)) << Line;
  }
}

/// PlainLineParser reads the runtime's keys in its order with a constant
/// compare each (EventKeys.h) and falls back to a loop where a line
/// differs: every detour gives the DOM parser's fields, and a line cut
/// anywhere is refused even when the bytes after the cut complete it (a
/// read past the end that counted would accept it).
TEST(EventParser, RuntimeKeyOrderAndItsDetours) {
  const std::string Head =
      R"({"id":7,"name":"pwrite64","cat":"POSIX","pid":27000,"tid":27001,)"
      R"("ts":1796172333521139,"dur":5,"ph":"X","args":)";
  const std::string Lines[] = {
      // Every args key the runtime writes, in its order.
      Head + R"({"level":3,"p_idx":2,"fhash":4503599627370496,"fd":3,)"
             R"("size":8,"count":2,"iovcnt":2,"bytes":16,"offset":4096,)"
             R"("append":1,"whence":0,"flags":577,"mode":420,"ret":16}})",
      Head + R"({"level":1,"p_idx":0}})",
      Head + R"({"level":1}})", Head + R"({"p_idx":4}})", Head + "{}}",
      // Another order, repeated and unknown keys, keys near known ones.
      Head + R"({"ret":1,"fhash":2,"level":1,"p_idx":0,"fd":3}})",
      Head + R"({"level":1,"level":2,"p_idx":0,"p_idx":1}})",
      Head + R"({"level":1,"p_idx":0,"fhas":1,"fhashx":2,"l":3,"ret":4}})",
      Head + R"({"level":1,"p_idx":0,"filetype_extent":3,"filetype_exten":4,)"
             R"("filetype_extentt":5,"etype_size":8,"abcdefghijklmnop":1}})",
      Head + R"({"level":1,"p_idx":0,"":1,"dur":3,"name":"n","value":"v"}})",
      R"({"name":"a","id":1,"ph":"X","cat":"C_APP","ts":1,"dur":1})",
      R"({"id":1,"name":"FH","cat":"dftracer","pid":1,"tid":1,"ph":"M",)"
      R"("args":{"name":"/a","value":45035996}})",
      Head + R"({"level":1,"p_idx":0},"type":2,"x":[1]})",
      Head + R"({"level":1,"p_idx":0} })",
      // Blanks between the tokens.
      R"({"id":1, "name":"a" ,"cat" :"C_APP","pid": 1,"tid":1 })",
      Head + R"( {"level":1, "p_idx":0 ,"fd" : 3 } })",
      Head + "{\"level\":1,\t\"p_idx\":0\r}}",
      // Numbers around the words read at once: 7, 8, 9, 15, 16, 17, 18
      // and 19 digits; zeros; signs; fractions right after the digits.
      R"({"id":1234567,"pid":12345678,"tid":123456789,"ts":123456789012345,)"
      R"("dur":1234567890123456})",
      R"({"ts":12345678901234567,"dur":123456789012345678})",
      R"({"ts":1234567890123456789})", R"({"id":0,"pid":0,"tid":00})",
      R"({"id":-1,"pid":-12345678,"tid":-1234567890123456})",
      R"({"ts":1234567890123456.5})", R"({"ts":12345678e3})",
      R"({"ts":1234567E3})", R"({"ts":1]})", R"({"ts":1x})",
      R"({"ts":12345678})", R"({"ts":1234567890123456})",
  };
  for (const std::string &L : Lines)
    expectSameAsDom(L);
  for (const std::string &L : Lines)
    for (size_t Cut = 0; Cut < L.size(); ++Cut)
      expectSameAsDomWith(L.substr(0, Cut), L.substr(Cut));
}

/// Each key reaches the field it did before the keys became tables, and
/// the keys Event does not hold (the runtime's "flags", upstream's "cfg")
/// none.
TEST(EventParser, KeysReachTheirFields) {
  Event E;
  const std::pair<const char *, Field *> Top[] = {
      {"id", &E.Id},   {"name", &E.Name}, {"cat", &E.Cat},
      {"pid", &E.Pid}, {"tid", &E.Tid},   {"ts", &E.Ts},
      {"dur", &E.Dur}, {"ph", &E.Ph},     {"type", &E.Type}};
  for (const auto &[Key, F] : Top)
    EXPECT_EQ(eventTopLevelField(E, Key), F) << Key;
  const std::pair<const char *, Field *> Args[] = {
      {"fd", &E.Fd},
      {"ret", &E.Ret},
      {"dur", &E.ArgDur},
      {"name", &E.ArgName},
      {"size", &E.Size},
      {"xfer", &E.Xfer},
      {"level", &E.Level},
      {"p_idx", &E.ParentIdx},
      {"fhash", &E.FHash},
      {"count", &E.Count},
      {"bytes", &E.Bytes},
      {"value", &E.ArgValue},
      {"dhash", &E.DHash},
      {"offset", &E.Offset},
      {"length", &E.Length},
      {"append", &E.Append},
      {"io_mode", &E.IoMode},
      {"dft_cnt", &E.Cnt},
      {"dur_sum", &E.DurSum},
      {"ret_sum", &E.RetSum},
      {"size_sum", &E.SizeSum},
      {"bytes_sum", &E.BytesSum},
      {"selection", &E.Selection},
      {"num_events", &E.NumEvents},
      {"etype_size", &E.EtypeSize},
      {"contiguous", &E.Contiguous},
      {"filetype_size", &E.FiletypeSize},
      {"filetype_extent", &E.FiletypeExtent}};
  for (const auto &[Key, F] : Args)
    EXPECT_EQ(eventArgField(E, Key), F) << Key;
  for (const char *Key : {"args", "level", "x", "", "identifier"})
    EXPECT_EQ(eventTopLevelField(E, Key), nullptr) << Key;
  // Unknown keys: some as long as known ones, with the same first 8 bytes.
  for (const char *Key : {"flags", "mode", "whence", "iovcnt", "hhash", "cfg",
                          "ts", "id", "fhas", "fhashes", "filetype_extent_",
                          "filetype_sizx", "num_eventx", "selectiox"})
    EXPECT_EQ(eventArgField(E, Key), nullptr) << Key;
}

/// The problems checkEvent finds in one line.
std::vector<EventProblem> problems(const std::string &Line) {
  std::vector<EventProblem> Out;
  checkEvent(ParsedLine(Line).E, Out);
  return Out;
}

/// Times past 2^53 us are not used: ts + dur would overflow, and a double
/// (the checker, JavaScript, the Chrome trace's readers) would round them.
TEST(EventCheck, TimesBeyondTwoToThe53AreBadFields) {
  const std::string Head =
      R"({"id":1,"name":"f","cat":"C_APP","pid":1,"tid":1,"ph":"X",)";
  EXPECT_TRUE(problems(Head + R"("ts":9007199254740992,"dur":9007199254740992})").empty());
  for (const char *Times : {R"("ts":9007199254740993,"dur":1})",
                            R"("ts":1,"dur":9223372036854775807})",
                            R"("ts":18446744073709551615,"dur":1})",
                            R"("ts":1e300,"dur":1})"}) {
    std::vector<EventProblem> P = problems(Head + Times);
    ASSERT_EQ(P.size(), 1u) << Times;
    EXPECT_EQ(P[0].Kind, Issue::BadField);
    EXPECT_NE(P[0].Message.find("is out of range"), std::string::npos)
        << P[0].Message;
  }
}

TEST(IoTaxonomy, AliasesFindTheirOperation) {
  EXPECT_EQ(opOf(Layer::Posix, "__pread64_chk"), Op::Read);
  EXPECT_EQ(opOf(Layer::Posix, "pwrite64"), Op::Write);
  EXPECT_EQ(opOf(Layer::Posix, "__open_2"), Op::Open);
  EXPECT_EQ(opOf(Layer::Posix, "openat64"), Op::Open);
  EXPECT_EQ(opOf(Layer::Posix, "__xstat64"), Op::Stat);
  EXPECT_EQ(opOf(Layer::Posix, "__fxstatat64"), Op::Stat);
  EXPECT_EQ(opOf(Layer::Posix, "statx"), Op::Stat);
  EXPECT_EQ(opOf(Layer::Posix, "lseek64"), Op::Seek);
  EXPECT_EQ(opOf(Layer::Posix, "fdatasync"), Op::Sync);
  EXPECT_EQ(opOf(Layer::Posix, "dup2"), Op::Control);
  EXPECT_EQ(opOf(Layer::Posix, "mmap64"), Op::Other);
  EXPECT_EQ(opOf(Layer::Posix, "aio_read64"), Op::Read);
  EXPECT_EQ(opOf(Layer::Posix, "aio_write"), Op::Write);
  EXPECT_EQ(opOf(Layer::Posix, "aio_return64"), Op::Other);
  EXPECT_EQ(opOf(Layer::Posix, "frobnicate"), Op::Unknown);
  EXPECT_EQ(opOf(Layer::Stdio, "__fread_unlocked_chk"), Op::Read);
  EXPECT_EQ(opOf(Layer::Stdio, "fopen64"), Op::Open);
  EXPECT_EQ(opOf(Layer::Stdio, "fflush"), Op::Sync);
  EXPECT_EQ(opOf(Layer::MpiIo, "MPI_File_iwrite_at_all"), Op::Write);
  EXPECT_EQ(opOf(Layer::MpiIo, "PMPI_File_read_ordered"), Op::Read);
  EXPECT_EQ(opOf(Layer::MpiIo, "MPI_File_set_view"), Op::Control);
  EXPECT_EQ(opOf(Layer::Hdf5, "H5Dcreate2"), Op::Open);
  EXPECT_EQ(opOf(Layer::Hdf5, "H5Fflush"), Op::Sync);
  EXPECT_EQ(opOf(Layer::Hdf5, "H5Awrite"), Op::Write);
}

/// Every symbol the runtime intercepts (runtime/src/io_symbols.def) has
/// an operation: a wrapper added there without a line here fails.
TEST(IoTaxonomy, EveryInterceptedSymbolIsKnown) {
  std::ifstream In(DFT_IO_SYMBOLS);
  ASSERT_TRUE(In) << DFT_IO_SYMBOLS;
  std::string Text((std::istreambuf_iterator<char>(In)), {});
  size_t Seen = 0;
  for (const auto &[Macro, L] : {std::pair<std::string, Layer>{"DFT_POSIX(", Layer::Posix},
                                 {"DFT_STDIO(", Layer::Stdio},
                                 {"DFT_MPIIO(", Layer::MpiIo},
                                 {"DFT_HDF5(", Layer::Hdf5}}) {
    for (size_t P = 0; (P = Text.find(Macro, P)) != std::string::npos;) {
      P += Macro.size();
      std::string Name = Text.substr(P, Text.find(')', P) - P);
      if (Name == "N" || Name.empty())
        continue;
      ++Seen;
      EXPECT_NE(opOf(L, Name), Op::Unknown) << layerName(L) << " " << Name;
    }
  }
  EXPECT_GT(Seen, 100u);
}

/// The categories by name, and names one byte off each (layerOfCategory
/// compares them as words: each byte counts, and so does the length).
TEST(IoTaxonomy, CategoriesAndTheirNearMisses) {
  struct {
    const char *Cat;
    Layer L;
  } Cases[] = {{"POSIX", Layer::Posix},   {"STDIO", Layer::Stdio},
               {"MPIIO", Layer::MpiIo},   {"HDF5", Layer::Hdf5},
               {"C_APP", Layer::App},     {"CPP_APP", Layer::App},
               {"PY_APP", Layer::App},    {"posix", Layer::Other},
               {"POSIY", Layer::Other},   {"QOSIX", Layer::Other},
               {"POSI", Layer::Other},    {"POSIXX", Layer::Other},
               {"HDF", Layer::Other},     {"HDF4", Layer::Other},
               {"C_APQ", Layer::Other},   {"CPP_APQ", Layer::Other},
               {"CPQ_APP", Layer::Other}, {"PY_APQ", Layer::Other},
               {"QY_APP", Layer::Other},  {"dftracer", Layer::Other},
               {"", Layer::Other},        {"MPIIOX", Layer::Other}};
  for (const auto &C : Cases)
    EXPECT_EQ(layerOfCategory(C.Cat), C.L) << C.Cat;
  // A view that ends inside a longer buffer: only its own bytes count.
  std::string_view Posix("POSIXIO", 5);
  EXPECT_EQ(layerOfCategory(Posix), Layer::Posix);
  EXPECT_EQ(layerOfCategory(std::string_view("HDF5X", 4)), Layer::Hdf5);
}

TEST(IoTaxonomy, DarshanBinBoundsAreInclusive) {
  EXPECT_EQ(sizeBin(0), 0u);
  EXPECT_EQ(sizeBin(100), 0u);
  EXPECT_EQ(sizeBin(101), 1u);
  EXPECT_EQ(sizeBin(1024), 1u);
  EXPECT_EQ(sizeBin(1025), 2u);
  EXPECT_EQ(sizeBin(4194304), 5u);
  EXPECT_EQ(sizeBin(4194305), 6u);
  EXPECT_EQ(sizeBin(1073741824), 8u);
  EXPECT_EQ(sizeBin(1073741825), 9u);
}

/// What classifyIo makes of one event line of layer L.
IoCall classified(Layer L, const std::string &Line) {
  return classifyIo(L, ParsedLine(Line).E);
}

TEST(IoTaxonomy, BytesFollowTheFormat) {
  EXPECT_EQ(
      classified(Layer::Stdio,
                 R"({"name":"fwrite","args":{"size":8,"count":16,"ret":10}})")
          .Bytes,
      80u);
  IoCall C = classified(
      Layer::MpiIo,
      R"({"name":"MPI_File_write_all","args":{"bytes":4096,"ret":13}})");
  EXPECT_TRUE(C.Failed);
  EXPECT_EQ(C.Bytes, 0u);
  C = classified(Layer::Posix,
                 R"({"name":"read","args":{"count":100,"ret":-1}})");
  EXPECT_TRUE(C.Failed);
  EXPECT_EQ(C.Bytes, 0u);
  EXPECT_EQ(classified(Layer::Hdf5,
                       R"({"name":"H5Dread","args":{"bytes":800,"ret":0}})")
                .Bytes,
            800u);
}

/// An aio request moves the `count` it asked for when queued (`ret` 0);
/// its completion, aio_return, moves nothing more (docs/trace-format.md).
TEST(IoTaxonomy, AioBytesAreTheRequests) {
  auto Posix = [](const char *Line) { return classified(Layer::Posix, Line); };
  IoCall C = Posix(R"({"name":"aio_write64","args":{"count":4096,"ret":0}})");
  EXPECT_EQ(C.O, Op::Write);
  EXPECT_FALSE(C.Failed);
  EXPECT_EQ(C.Bytes, 4096u);
  C = Posix(R"({"name":"aio_read","args":{"count":16,"ret":0}})");
  EXPECT_EQ(C.O, Op::Read);
  EXPECT_EQ(C.Bytes, 16u);
  C = Posix(R"({"name":"aio_read","args":{"count":16,"ret":-1}})");
  EXPECT_TRUE(C.Failed);
  EXPECT_EQ(C.Bytes, 0u);
  C = Posix(R"({"name":"aio_return64","args":{"count":4096,"ret":4096}})");
  EXPECT_EQ(C.O, Op::Other);
  EXPECT_FALSE(C.Failed);
  EXPECT_EQ(C.Bytes, 0u);
  C = Posix(R"({"name":"aio_return","args":{"count":4096,"ret":-1}})");
  EXPECT_TRUE(C.Failed);
}

/// Every MPI-IO data routine of MPI 4.0 (14.4), by kind, and the calls
/// that are not data calls.
TEST(IoTaxonomy, MpiIoKindsByName) {
  const std::pair<const char *, MpiKind> Names[] = {
      {"MPI_File_read", MpiKind::Independent},
      {"MPI_File_write", MpiKind::Independent},
      {"MPI_File_read_at", MpiKind::Independent},
      {"MPI_File_write_at", MpiKind::Independent},
      {"MPI_File_read_shared", MpiKind::Independent},
      {"MPI_File_write_shared", MpiKind::Independent},
      {"PMPI_File_write_at", MpiKind::Independent},
      {"MPI_File_read_all", MpiKind::Collective},
      {"MPI_File_write_all", MpiKind::Collective},
      {"MPI_File_read_at_all", MpiKind::Collective},
      {"MPI_File_write_at_all", MpiKind::Collective},
      {"MPI_File_read_ordered", MpiKind::Collective},
      {"MPI_File_write_ordered", MpiKind::Collective},
      {"MPI_File_iread", MpiKind::NonBlocking},
      {"MPI_File_iwrite", MpiKind::NonBlocking},
      {"MPI_File_iread_at", MpiKind::NonBlocking},
      {"MPI_File_iwrite_at", MpiKind::NonBlocking},
      {"MPI_File_iread_shared", MpiKind::NonBlocking},
      {"MPI_File_iwrite_shared", MpiKind::NonBlocking},
      {"MPI_File_iread_all", MpiKind::NonBlockingCollective},
      {"MPI_File_iwrite_all", MpiKind::NonBlockingCollective},
      {"MPI_File_iread_at_all", MpiKind::NonBlockingCollective},
      {"MPI_File_iwrite_at_all", MpiKind::NonBlockingCollective},
      {"MPI_File_read_all_begin", MpiKind::SplitBegin},
      {"MPI_File_write_all_begin", MpiKind::SplitBegin},
      {"MPI_File_read_at_all_begin", MpiKind::SplitBegin},
      {"MPI_File_write_at_all_begin", MpiKind::SplitBegin},
      {"MPI_File_read_ordered_begin", MpiKind::SplitBegin},
      {"MPI_File_write_ordered_begin", MpiKind::SplitBegin},
      {"MPI_File_read_all_end", MpiKind::SplitEnd},
      {"MPI_File_write_all_end", MpiKind::SplitEnd},
      {"MPI_File_read_at_all_end", MpiKind::SplitEnd},
      {"MPI_File_write_at_all_end", MpiKind::SplitEnd},
      {"MPI_File_read_ordered_end", MpiKind::SplitEnd},
      {"MPI_File_write_ordered_end", MpiKind::SplitEnd},
      {"MPI_File_open", MpiKind::None},
      {"MPI_File_set_view", MpiKind::None},
      {"MPI_File_seek_shared", MpiKind::None},
      {"pwrite64", MpiKind::None},
  };
  for (const auto &[Name, Kind] : Names) {
    EXPECT_EQ(mpiKindOf(Name), Kind) << Name;
    if (Kind != MpiKind::None) {
      EXPECT_TRUE(isDataOp(opOf(Layer::MpiIo, Name))) << Name;
    }
  }
  EXPECT_TRUE(isCollective(MpiKind::SplitEnd));
  EXPECT_FALSE(isCollective(MpiKind::NonBlocking));
  EXPECT_STREQ(mpiKindName(MpiKind::NonBlockingCollective),
               "nonblocking_collective");
}

// expandTraceArguments sorts a directory's traces by their bytes (on keys
// after the start they share): names that are prefixes of others, that
// differ only past the first 8 bytes after that start, in bytes above
// 0x7f, and entries that are not traces.
TEST(ExpandTraceArguments, DirectoryEntriesInByteOrder) {
  std::string Dir = tempPath("expand-order");
  std::filesystem::remove_all(Dir);
  std::filesystem::create_directories(Dir);
  std::vector<std::string> Names = {
      "trace-1.pfw",          "trace-1.pfw.gz",       "trace-10.pfw",
      "trace-2.pfw",          "trace-abcdefgh-2.pfw", "trace-abcdefgh-1.pfw",
      "trace-\xc3\xa9t\xc3\xa9.pfw", "trace-Z.pfc",   "trace-.pfw",
      "other.pfw",            "trace-abcdefgh.pfw",   "t.pfw.gz",
      "t.pfw"};
  for (const std::string &N : Names)
    std::ofstream(Dir + "/" + N) << "[\n";
  std::ofstream(Dir + "/notes.txt") << "not a trace\n";
  std::vector<std::string> Errors;
  std::vector<std::string> Got = expandTraceArguments({Dir}, Errors);
  EXPECT_TRUE(Errors.empty());
  std::vector<std::string> Want;
  for (const std::string &N : Names)
    Want.push_back(Dir + "/" + N);
  std::sort(Want.begin(), Want.end());
  EXPECT_EQ(Got, Want);
}

} // namespace
