//===- CandidateTest.cpp - dftracer-tune's candidates ---------------------===//

#include "tune/Candidate.h"

#include <gtest/gtest.h>

using namespace dfttune;

namespace {

Candidate argsCandidate(const std::string &Args) {
  Candidate C;
  C.K = Candidate::Args;
  C.Value = Args;
  std::string Error;
  EXPECT_TRUE(splitWords(Args, C.ArgWords, Error)) << Error;
  return C;
}

} // namespace

// An option the command has gets the new value in place; {run} is the
// run's directory.
TEST(TuneCandidate, ArgsReplaceInPlace) {
  Candidate C = argsCandidate("-t 1m");
  std::vector<std::string> Base = {"ior", "-t", "4k", "-o", "{run}/f"};
  EXPECT_EQ(C.command(Base, "/w/try1/run2/out"),
            (std::vector<std::string>{"ior", "-t", "1m", "-o",
                                      "/w/try1/run2/out/f"}));
  C.describeChange(Base);
  EXPECT_EQ(C.Change, "-t 4k -> 1m");
}

// --opt=VALUE replaced; what the command lacks is appended.
TEST(TuneCandidate, ArgsEqualsAndAppend) {
  Candidate C = argsCandidate("--size=1m -c --mode 'a b'");
  std::vector<std::string> Base = {"app", "--size=4k"};
  EXPECT_EQ(
      C.command(Base, "/r"),
      (std::vector<std::string>{"app", "--size=1m", "-c", "--mode", "a b"}));
  C.describeChange(Base);
  EXPECT_EQ(C.Change, "--size 4k -> 1m, + -c --mode a b");
}

TEST(TuneCandidate, SettingsAndEnvironment) {
  Candidate T;
  T.K = Candidate::Tune;
  T.Value = "*.h5:hdf5.alignment=4096,4096";
  EXPECT_EQ(T.setting(), "DFTRACER_TUNE=*.h5:hdf5.alignment=4096,4096");
  ASSERT_EQ(T.environment().size(), 1u);
  EXPECT_EQ(T.environment()[0].first, "DFTRACER_TUNE");
  Candidate E;
  E.K = Candidate::Env;
  E.Value = "ROMIO_HINTS=/h/hints";
  EXPECT_EQ(E.setting(), "env ROMIO_HINTS=/h/hints");
  EXPECT_EQ(E.environment()[0].second, "/h/hints");
}

TEST(TuneCandidate, SplitWords) {
  std::vector<std::string> W;
  std::string Error;
  ASSERT_TRUE(splitWords("-a  \"b c\" d'e f'", W, Error));
  EXPECT_EQ(W, (std::vector<std::string>{"-a", "b c", "de f"}));
  EXPECT_FALSE(splitWords("-a 'b", W, Error));
  EXPECT_EQ(substituteRun("{run}/x/{run}", "/d"), "/d/x//d");
}
