//===- FilterTest.cpp -----------------------------------------------------===//

#include "annotate/Filter.h"

#include <gtest/gtest.h>

using namespace annotate;

namespace {

Pattern compile(llvm::StringRef Text) {
  auto P = Pattern::compile(Text);
  EXPECT_TRUE(static_cast<bool>(P)) << llvm::toString(P.takeError());
  return P ? std::move(*P) : Pattern();
}

TEST(FilterTest, GlobsMatchWholeNames) {
  Pattern P = compile("h5_*");
  EXPECT_TRUE(P.matches("h5_write"));
  EXPECT_FALSE(P.matches("my_h5_write"));
  EXPECT_TRUE(compile("*::read").matches("io::File::read"));
  EXPECT_TRUE(compile("{open,close}_file").matches("close_file"));
}

TEST(FilterTest, RegexesSearch) {
  Pattern P = compile("re:_cb$");
  EXPECT_TRUE(P.matches("progress_cb"));
  EXPECT_FALSE(P.matches("cb_progress"));
}

TEST(FilterTest, BadPatternsAreErrors) {
  EXPECT_FALSE(static_cast<bool>(Pattern::compile("re:(")));
  auto Glob = Pattern::compile("[");
  EXPECT_FALSE(static_cast<bool>(Glob));
  llvm::consumeError(Glob.takeError());
}

TEST(FilterTest, LastMatchWins) {
  Filter F;
  F.add({false, compile("*"), "rules"});
  F.add({true, compile("h5_*"), "rules"});
  F.add({false, compile("re:_cb$"), "--exclude-function"});
  EXPECT_FALSE(F.lastMatch("main")->Include);
  EXPECT_TRUE(F.lastMatch("h5_write")->Include);
  EXPECT_FALSE(F.lastMatch("h5_iter_cb")->Include);
  EXPECT_EQ(F.lastMatch("h5_iter_cb")->describe(),
            "exclude 're:_cb$' (--exclude-function)");
  EXPECT_EQ(Filter().lastMatch("x"), nullptr);
}

TEST(FilterTest, PatternsOutliveTheirText) {
  Pattern P = [] {
    std::string Text = "short_*";
    return compile(Text);
  }();
  EXPECT_TRUE(P.matches("short_name"));
}

} // namespace
