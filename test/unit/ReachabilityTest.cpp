//===- ReachabilityTest.cpp -----------------------------------------------===//

#include "Reachability.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

using namespace annotate;
using namespace annotate::test;

namespace {

bool fallsOff(llvm::StringRef Body) {
  std::string Code = "#include <stdlib.h>\n"
                     "int MPI_Abort(int, int);\n"
                     "_Noreturn void die(void);\n"
                     "int g(void);\n"
                     "void f(int x) " +
                     Body.str() + "\n";
  auto Unit = parseC(Code);
  const clang::FunctionDecl *F = findFunction(*Unit, "f");
  EXPECT_NE(F, nullptr);
  return canFallOffEnd(*F, Unit->getASTContext(), defaultOptions().Rules);
}

TEST(ReachabilityTest, PlainBodyFallsOff) {
  EXPECT_TRUE(fallsOff("{ g(); }"));
  EXPECT_TRUE(fallsOff("{}"));
  EXPECT_TRUE(fallsOff("{ if (x) return; }"));
  EXPECT_TRUE(fallsOff("{ while (x) { if (g()) break; } }"));
}

TEST(ReachabilityTest, ReturnsOnEveryPath) {
  EXPECT_FALSE(fallsOff("{ return; }"));
  EXPECT_FALSE(fallsOff("{ if (x) return; else return; }"));
  EXPECT_FALSE(fallsOff("{ switch (x) { case 1: return; default: return; } }"));
}

TEST(ReachabilityTest, InfiniteLoops) {
  EXPECT_FALSE(fallsOff("{ for (;;) { g(); } }"));
  EXPECT_FALSE(fallsOff("{ while (1) { if (g()) return; } }"));
  EXPECT_TRUE(fallsOff("{ while (1) { if (g()) break; } }"));
}

TEST(ReachabilityTest, NoReturnCalls) {
  EXPECT_FALSE(fallsOff("{ g(); exit(1); }"));
  EXPECT_FALSE(fallsOff("{ abort(); }"));
  EXPECT_FALSE(fallsOff("{ die(); }"));
  // Not declared noreturn by MPI, listed in the rule set.
  EXPECT_FALSE(fallsOff("{ MPI_Abort(0, 1); }"));
  EXPECT_TRUE(fallsOff("{ if (x) MPI_Abort(0, 1); }"));
}

TEST(ReachabilityTest, GotoCleanup) {
  EXPECT_FALSE(fallsOff("{ if (x) goto done; g(); done: return; }"));
  EXPECT_TRUE(fallsOff("{ if (x) goto done; return; done: g(); }"));
}

} // namespace
