//===- ReturnClassifierTest.cpp -------------------------------------------===//

#include "ReturnClassifier.h"
#include "BodyFacts.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

using namespace annotate;
using namespace annotate::test;

namespace {

/// Classifies the first return of function f in Code.
bool firstReturnIsSimple(llvm::StringRef Code) {
  auto Unit = parseC(Code);
  const clang::FunctionDecl *F = findFunction(*Unit, "f");
  EXPECT_NE(F, nullptr);
  BodyFacts Facts(llvm::cast<clang::CompoundStmt>(F->getBody()));
  EXPECT_FALSE(Facts.returns().empty());
  return isSimpleReturnValue(Facts.returns().front()->getRetValue());
}

const char *Prelude = "struct s { int a; int *p; };\n"
                      "int g(void);\n"
                      "static int arr[4];\n";

TEST(ReturnClassifierTest, ValuesThatDoNoWorkAreSimple) {
  for (const char *Value :
       {"0", "x", "-x", "x + 1", "x == 2 ? 1 : 0", "s->a", "arr[x]",
        "(int)sizeof(struct s)", "*s->p", "'c'", "!x && x < 3"})
    EXPECT_TRUE(firstReturnIsSimple(std::string(Prelude) +
                                    "int f(int x, struct s *s) { return " +
                                    Value + "; }"))
        << Value;
}

TEST(ReturnClassifierTest, ValuesThatCallOrChangeStateAreNot) {
  for (const char *Value : {"g()", "x++", "--x", "x = 3", "x += g()",
                            "(g(), 1)", "x ? g() : 0", "arr[g()]"})
    EXPECT_FALSE(firstReturnIsSimple(std::string(Prelude) +
                                     "int f(int x, struct s *s) { return " +
                                     Value + "; }"))
        << Value;
}

TEST(ReturnClassifierTest, VoidReturnIsSimple) {
  EXPECT_TRUE(firstReturnIsSimple("void f(void) { return; }"));
}

TEST(ReturnClassifierTest, DeclarationTypes) {
  auto Unit = parseC("typedef int herr_t;\n"
                     "herr_t a(void) { return 0; }\n"
                     "const char *b(void) { return 0; }\n"
                     "int (*c(void))(int) { return 0; }\n"
                     "struct p { int x; } d(void) { struct p v = {0}; return v; }\n");
  auto &Ctx = Unit->getASTContext();
  auto TypeOf = [&](const char *Name) {
    return typeForDeclaration(findFunction(*Unit, Name)->getReturnType(), Ctx);
  };
  EXPECT_EQ(TypeOf("a"), "herr_t");
  EXPECT_EQ(TypeOf("b"), "const char *");
  EXPECT_EQ(TypeOf("c"), "__typeof__(int (*)(int))");
  EXPECT_EQ(TypeOf("d"), "struct p");
}

} // namespace
