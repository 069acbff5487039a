//===- SkippedExitsTest.cpp -----------------------------------------------===//

#include "SkippedExits.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

using namespace annotate;
using namespace annotate::test;

namespace {

/// "token@line(condition)" for each exit found in the skipped blocks.
std::vector<std::string> exitsIn(llvm::StringRef Code,
                                 std::vector<std::string> Args = {}) {
  Args.push_back("-std=gnu11");
  TranslationUnitResult R =
      annotateCode(Code, "input.c", Args, defaultOptions());
  EXPECT_FALSE(R.Failed) << R.FailureReason;
  std::vector<std::string> Out;
  for (const SkippedExit &E : R.SkippedExits)
    Out.push_back(E.Token + "@" + std::to_string(E.Line) + "(" + E.Condition +
                  ")");
  return Out;
}

TEST(SkippedExitsTest, ExitsInSkippedBlocksOfAnnotatedBodies) {
  const char *Code = "void exit(int);\n"             // 1
                     "void MPI_Abort(int, int);\n"   // 2
                     "int f(int x) {\n"              // 3
                     "#ifdef A\n"                    // 4
                     "  if (x) return 1;\n"          // 5
                     "#elif defined(B)\n"            // 6
                     "  if (x) goto out;\n"          // 7
                     "#else\n"                       // 8
                     "  x++;\n"                      // 9
                     "#endif\n"                      // 10
                     "#ifndef C\n"                   // 11
                     "  x--;\n"                      // 12
                     "#else\n"                       // 13
                     "  exit(2); MPI_Abort(0, 1);\n" // 14
                     "#endif\n"                      // 15
                     "out:\n"                        // 16
                     "  return x;\n"                 // 17
                     "}\n";
  // `goto out;` jumps to a label of the function: not an exit.
  EXPECT_EQ(exitsIn(Code), (std::vector<std::string>{
                               "return@5(#ifdef A)",
                               "exit@14(#else of #ifndef C)",
                               "MPI_Abort@14(#else of #ifndef C)"}));
  // Compiled with -DA: the #ifdef A block is not skipped, the others are.
  EXPECT_EQ(exitsIn(Code, {"-DA"}),
            (std::vector<std::string>{"exit@14(#else of #ifndef C)",
                                      "MPI_Abort@14(#else of #ifndef C)"}));
}

TEST(SkippedExitsTest, GotoToALabelOfTheFunctionIsNotAnExit) {
  // HDF5's H5Z.c: `goto next;` under #ifdef H5Z_DEBUG to a label of the
  // loop; a label in another skipped block counts too, a computed goto
  // stays in the function. Only a goto to no label of the function is
  // reported.
  EXPECT_EQ(exitsIn("int f(int n) {\n"               // 1
                    "  for (int i = 0; i < n; i++) {\n" // 2
                    "#ifdef H5Z_DEBUG\n"            // 3
                    "    if (i == 2) goto next;\n"  // 4
                    "    if (i == 3) goto late;\n"  // 5
                    "    if (i == 4) goto *&&next;\n" // 6
                    "    if (i == 5) goto elsewhere;\n" // 7
                    "#endif\n"                      // 8
                    "    n--;\n"                    // 9
                    "  next:;\n"                    // 10
                    "  }\n"                         // 11
                    "#ifdef LATE\n"                 // 12
                    "late:\n"                       // 13
                    "  n++;\n"                      // 14
                    "#endif\n"                      // 15
                    "  return n;\n"                 // 16
                    "}\n"),
            (std::vector<std::string>{"goto@7(#ifdef H5Z_DEBUG)"}));
}

TEST(SkippedExitsTest, WhatOnlyLooksLikeAnExitIsNotOne) {
  EXPECT_TRUE(exitsIn("int f(int exit_code) {\n"
                      "#if 0\n"
                      "  /* return early */ // goto out\n"
                      "  const char *s = \"return\"; int exit = 1;\n"
                      "  exit_code = exit + 1;\n"
                      "#  if defined(return_me)\n"
                      "#  endif\n"
                      "#endif\n"
                      "  return exit_code;\n"
                      "}\n")
                  .empty());
}

TEST(SkippedExitsTest, OnlyAnnotatedCFunctionsCount) {
  // A skipped block outside any body, and in a function the guard skips
  // (defaultOptions turns the guard off: turn it back on).
  AnnotateOptions Options = defaultOptions();
  Options.Rules.GuardMinStatements = 2;
  TranslationUnitResult R = annotateCode("#ifdef A\n"
                                         "int g(void) { return 1; }\n"
                                         "#endif\n"
                                         "int leaf(int x) { return x; }\n",
                                         "input.c", {"-std=gnu11"}, Options);
  EXPECT_TRUE(R.SkippedExits.empty());
  // C++: the guard closes the span on every path, nothing is missing.
  R = annotateCode("int f(int x) {\n#ifdef A\n  if (x) return 1;\n#endif\n"
                   "  return x;\n}\n",
                   "input.cpp", {"-std=c++17"}, defaultOptions());
  EXPECT_TRUE(R.SkippedExits.empty());
}

TEST(SkippedExitsTest, BlockConditionNamesTheBranch) {
  llvm::StringRef Buffer = "#if A\n"      // 0
                           "x\n"          // 6
                           "#  ifdef B\n" // 8
                           "y\n"          // 19
                           "#  endif\n"   // 21
                           "z\n"          // 30
                           "#else\n"      // 32
                           "w\n"          // 38
                           "#endif\n";
  EXPECT_EQ(blockCondition(Buffer, 6), "#if A");
  EXPECT_EQ(blockCondition(Buffer, 19), "#  ifdef B");
  EXPECT_EQ(blockCondition(Buffer, 30), "#if A");
  EXPECT_EQ(blockCondition(Buffer, 38), "#else of #if A");
}

} // namespace
