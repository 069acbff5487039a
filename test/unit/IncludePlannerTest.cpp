//===- IncludePlannerTest.cpp ---------------------------------------------===//

#include "TestSupport.h"

#include <gtest/gtest.h>

using namespace annotate;
using namespace annotate::test;

namespace {

const char *Include = "#include <dftracer/dftracer.h>\n";

TEST(IncludePlannerTest, AfterLastTopLevelInclude) {
  Annotated A = annotateSnippet("#include <stdio.h>\n#ifdef X\n#include <x.h>\n"
                                "#endif\nvoid f(void) {}\n");
  EXPECT_EQ(A.Code.substr(0, 19 + strlen(Include)),
            "#include <stdio.h>\n" + std::string(Include));
}

TEST(IncludePlannerTest, AfterLeadingCommentBlock) {
  Annotated A = annotateSnippet("/* one */\n// two\n\n/* doc of f */\nvoid f(void) {}\n");
  EXPECT_EQ(A.Code.substr(0, 17 + strlen(Include)),
            "/* one */\n// two\n" + std::string(Include));
}

TEST(IncludePlannerTest, AtTheTopWithoutCommentsOrIncludes) {
  Annotated A = annotateSnippet("void f(void) {}\n");
  EXPECT_EQ(A.Code.substr(0, strlen(Include)), Include);
}

TEST(IncludePlannerTest, AfterAByteOrderMark) {
  // The mark must stay the file's first bytes: before it, gcc rejects it.
  Annotated A = annotateSnippet("\xEF\xBB\xBFvoid f(void) {}\n");
  EXPECT_EQ(A.Code.substr(0, 3 + strlen(Include)),
            "\xEF\xBB\xBF" + std::string(Include));
}

TEST(IncludePlannerTest, OnceOnly) {
  Annotated A = annotateSnippet("#include \"dftracer/dftracer.h\"\nvoid f(void) {}\n");
  EXPECT_EQ(A.Code.find("#include <dftracer"), std::string::npos) << A.Code;
}

TEST(IncludePlannerTest, UnchangedFileGetsNoInclude) {
  Annotated A = annotateSnippet("#include <stdio.h>\nint x;\n");
  EXPECT_EQ(A.Code, "#include <stdio.h>\nint x;\n");
}

} // namespace

namespace {

TEST(IncludePlannerTest, LineDirectivesKeepEveryLineNumber) {
  AnnotateOptions Options = defaultOptions();
  Options.LineDirectives = true;
  const char *Code = "#include <stdio.h>\n"
                     "int f(int a)\n"
                     "{\n"
                     "    if (a)\n"
                     "        return 1; // one\n"
                     "    puts(\"x\");\n"
                     "}\n";
  Annotated A = annotateSnippet(Code, Options);
  // #line 1, the include and a #line after it: every original line keeps
  // its number.
  EXPECT_EQ(llvm::StringRef(A.Code).count('\n'),
            llvm::StringRef(Code).count('\n') + 3)
      << A.Code;
  EXPECT_EQ(A.Code.substr(0, 9), "#line 1 \"");
  EXPECT_NE(A.Code.find("#include <dftracer/dftracer.h>\n#line 2 \""),
            std::string::npos)
      << A.Code;
  EXPECT_NE(A.Code.find("        DFTRACER_C_FUNCTION_END(); return 1; } // one\n"),
            std::string::npos)
      << A.Code;
  // A file that needs nothing still names its original.
  Annotated Plain = annotateSnippet("int x;\n", Options);
  EXPECT_EQ(Plain.Code.substr(0, 9), "#line 1 \"") << Plain.Code;
}

// The include and #line directives end like the line they follow; on the
// last line, which has none, like the file's lines.
TEST(IncludePlannerTest, LineBreaksFollowTheFile) {
  Annotated A = annotateSnippet("#include <stdio.h>\r\nvoid f(void) {}\r\n");
  EXPECT_EQ(A.Code.substr(0, 52),
            "#include <stdio.h>\r\n#include <dftracer/dftracer.h>\r\n");
  AnnotateOptions Options = defaultOptions();
  Options.LineDirectives = true;
  A = annotateSnippet("// f\r\nvoid f(void) {}\r\n", Options);
  EXPECT_EQ(llvm::StringRef(A.Code).count('\n'),
            llvm::StringRef(A.Code).count("\r\n"))
      << A.Code;
  EXPECT_NE(A.Code.find("#line 2 \""), std::string::npos) << A.Code;
}

} // namespace
