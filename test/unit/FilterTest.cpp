//===- FilterTest.cpp -----------------------------------------------------===//

#include "annotate/Filter.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

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

/// A filter file holding Text; removed at the end of the test.
class FilterFile {
public:
  explicit FilterFile(llvm::StringRef Text) {
    int FD;
    EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("annotate", "filter", FD,
                                                    Path));
    llvm::raw_fd_ostream Out(FD, /*shouldClose=*/true);
    Out << Text;
  }
  ~FilterFile() { llvm::sys::fs::remove(Path); }
  std::string path() const { return std::string(Path); }

private:
  llvm::SmallString<128> Path;
};

TEST(FilterTest, FilterFilesAddRulesInFileOrder) {
  FilterFile F("# hot and short, from a trace\n"
               "\n"
               "exclude-function uniform_*\n"
               "include-function uniform_keep\n"
               "  exclude-file re:^vendor/  \n"
               "include-file vendor/ours.c\n");
  Filter Functions, Files;
  llvm::Error E = readFilterFile(F.path(), Functions, Files);
  ASSERT_FALSE(E) << llvm::toString(std::move(E));
  const FilterRule *R = Functions.lastMatch("uniform_random_number");
  ASSERT_TRUE(R);
  EXPECT_FALSE(R->Include);
  EXPECT_EQ(R->describe(), "exclude 'uniform_*' (" + F.path() + ":3)");
  R = Functions.lastMatch("uniform_keep");
  ASSERT_TRUE(R);
  EXPECT_TRUE(R->Include);
  EXPECT_FALSE(Functions.lastMatch("vendor/x.c"));
  R = Files.lastMatch("vendor/x.c");
  ASSERT_TRUE(R);
  EXPECT_FALSE(R->Include);
  R = Files.lastMatch("vendor/ours.c");
  ASSERT_TRUE(R);
  EXPECT_TRUE(R->Include);
}

TEST(FilterTest, FilterFileErrorsNameTheLine) {
  auto ErrorOf = [](llvm::StringRef Text) {
    FilterFile F(Text);
    Filter Functions, Files;
    llvm::Error E = readFilterFile(F.path(), Functions, Files);
    std::string Message = E ? llvm::toString(std::move(E)) : "";
    // Relative to the file: "LINE: reason".
    llvm::StringRef M(Message);
    return M.consume_front(F.path() + ":") ? M.str() : "unexpected: " + Message;
  };
  EXPECT_EQ(ErrorOf("# ok\nexclude-function f\nexclude-functions g\n"),
            "3: unknown rule 'exclude-functions' (expected exclude-function, "
            "include-function, exclude-file or include-file)");
  EXPECT_EQ(ErrorOf("include-file\n"), "1: 'include-file' needs a pattern");
  EXPECT_TRUE(llvm::StringRef(ErrorOf("exclude-function re:(\n"))
                  .starts_with("1: "));
  Filter Functions, Files;
  llvm::Error Missing = readFilterFile("/no/such/filter", Functions, Files);
  EXPECT_TRUE(llvm::StringRef(llvm::toString(std::move(Missing)))
                  .starts_with("/no/such/filter: cannot read"));
}

} // namespace
