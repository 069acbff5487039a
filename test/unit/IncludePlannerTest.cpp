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

TEST(IncludePlannerTest, OnceOnly) {
  Annotated A = annotateSnippet("#include \"dftracer/dftracer.h\"\nvoid f(void) {}\n");
  EXPECT_EQ(A.Code.find("#include <dftracer"), std::string::npos) << A.Code;
}

TEST(IncludePlannerTest, UnchangedFileGetsNoInclude) {
  Annotated A = annotateSnippet("#include <stdio.h>\nint x;\n");
  EXPECT_EQ(A.Code, "#include <stdio.h>\nint x;\n");
}

} // namespace
