//===- CompileCommandTest.cpp ---------------------------------------------===//
//
// The language a build compiles a file in, read from its command (issue
// 38): the command's -x, else a C++ driver's, else the extension.

#include "CompileCommand.h"
#include "Leniency.h"

#include <gtest/gtest.h>

using namespace annotate;

namespace {

using Line = std::vector<std::string>;

TEST(CompileCommandTest, CxxDriversByName) {
  for (const char *D :
       {"g++", "c++", "clang++", "/usr/bin/mpicxx", "mpic++", "mpiCC", "CC",
        "icpc", "icpx", "x86_64-linux-gnu-g++-12", "clang++-19",
        "mpicxx.mpich", "mpicxx.openmpi", "nvc++", "h5c++", "g++.exe"})
    EXPECT_TRUE(isCxxDriver(D)) << D;
  for (const char *D : {"gcc", "cc", "clang", "/usr/bin/mpicc", "mpicc.mpich",
                        "icc", "icx", "x86_64-linux-gnu-gcc-12", "clang-tool",
                        "h5pcc", "nvcc", "ccache"})
    EXPECT_FALSE(isCxxDriver(D)) << D;
}

TEST(CompileCommandTest, CxxDriverCompilesCAsCxx) {
  EXPECT_EQ(impliedLanguage({"/usr/bin/mpicxx", "-c", "a.c"}, "/src/a.c"),
            "c++");
  EXPECT_EQ(impliedLanguage({"g++", "-c", "x.h"}, "x.h"), "c++-header");
  // The extension already says C++: nothing to add.
  EXPECT_EQ(impliedLanguage({"mpicxx", "-c", "a.cpp"}, "a.cpp"), "");
  // A C driver compiles .c as C and .cpp as C++, as Clang does.
  EXPECT_EQ(impliedLanguage({"gcc", "-c", "a.c"}, "a.c"), "");
  EXPECT_EQ(impliedLanguage({"mpicc", "-c", "a.cpp"}, "a.cpp"), "");
  // The driver mode the compile database adds for `c++` says it too.
  EXPECT_EQ(impliedLanguage({"tool", "--driver-mode=g++", "-c", "a.c"}, "a.c"),
            "c++");
}

TEST(CompileCommandTest, ExplicitLanguageWins) {
  // -x before the file decides, whatever the driver.
  EXPECT_EQ(explicitLanguage({"gcc", "-x", "c++", "-c", "a.c"}, "a.c"), "c++");
  EXPECT_EQ(impliedLanguage({"gcc", "-x", "c++", "-c", "a.c"}, "a.c"), "");
  EXPECT_EQ(explicitLanguage({"g++", "-xc", "-c", "a.cu"}, "a.cu"), "c");
  EXPECT_EQ(impliedLanguage({"g++", "-xc", "-c", "a.c"}, "a.c"), "");
  // -x after the file, or reset by -x none, does not apply to it.
  EXPECT_EQ(explicitLanguage({"gcc", "-c", "a.c", "-x", "c++", "b.c"}, "a.c"),
            "");
  EXPECT_EQ(explicitLanguage({"g++", "-x", "c", "-x", "none", "a.c"}, "a.c"),
            "");
  EXPECT_EQ(impliedLanguage({"g++", "-x", "c", "-x", "none", "a.c"}, "a.c"),
            "c++");
  // Intel's -xHost is no language.
  EXPECT_EQ(explicitLanguage({"icpc", "-xHost", "-c", "a.c"}, "a.c"), "");
  EXPECT_EQ(impliedLanguage({"icpc", "-xHost", "-c", "a.c"}, "a.c"), "c++");
  // The file as the command names it, relative or absolute.
  EXPECT_EQ(explicitLanguage({"gcc", "-x", "c++", "src/a.c", "-x", "c"},
                             "/work/src/a.c"),
            "c++");
}

TEST(CompileCommandTest, InsertedAfterTheDriver) {
  EXPECT_EQ(withImpliedLanguage({"mpicxx", "-O2", "-c", "a.c"}, "a.c"),
            (Line{"mpicxx", "-x", "c++", "-O2", "-c", "a.c"}));
  EXPECT_EQ(withImpliedLanguage({"mpicc", "-O2", "-c", "a.c"}, "a.c"),
            (Line{"mpicc", "-O2", "-c", "a.c"}));
}

TEST(LeniencyTest, OnlyErrorsGccAccepts) {
  ParseError Narrowing{"a.cpp:6:18", "type 'double' cannot be narrowed",
                       "c++11-narrowing"};
  ParseError Register{"a.cpp:2:1", "ISO C++17 does not allow 'register'",
                      "register"};
  ParseError Hard{"a.cpp:9:1", "unknown type name 'foo'", ""};
  EXPECT_EQ(leniencyFor({Narrowing, Register, Narrowing}),
            (Line{"-Wno-c++11-narrowing", "-Wno-register"}));
  // A real error among them: no second try.
  EXPECT_TRUE(leniencyFor({Narrowing, Hard}).empty());
  EXPECT_TRUE(leniencyFor({ParseError{"", "x", "unknown-group"}}).empty());
}

TEST(LeniencyTest, HintNamesTheFlag) {
  ParseError Vla{"a.cpp:3:7", "variable length arrays are a C99 feature",
                 "vla-cxx-extension"};
  EXPECT_EQ(hintFor(Vla, true, false),
            "if your compiler accepts it, try --extra-arg=-Wno-vla-cxx-extension");
  ParseError Hard{"a.c:1:1", "unknown type name 'class'", ""};
  EXPECT_NE(hintFor(Hard, false, false).find("--extra-arg-before=-xc++"),
            std::string::npos);
  // The command said C: no language hint.
  EXPECT_EQ(hintFor(Hard, false, true).find("-xc++"), std::string::npos);
}

} // namespace
