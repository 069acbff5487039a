//===- StripPatternsTest.cpp - Rule-set statements as tokens --------------===//

#include "StripPatterns.h"
#include "TestSupport.h"

#include "clang/Basic/SourceManager.h"

#include <gtest/gtest.h>

using namespace annotate;
using namespace annotate::test;

namespace {

/// The rule-set statement written at the start of Code, and its end.
std::optional<StripPatterns::Match>
matchAtStart(llvm::StringRef Code, const RuleSet &Rules = defaultOptions().Rules) {
  clang::SourceManagerForFile File("input.c", Code);
  clang::LangOptions LO;
  SourceText Text(File.get(), LO, File.get().getMainFileID());
  return StripPatterns(Rules, LO).match(Text, 0);
}

TEST(StripPatternsTest, SameTokensInAnySpacing) {
  auto M = matchAtStart("DFTRACER_C_FUNCTION_END ( ) ;\nreturn 0;");
  ASSERT_TRUE(M);
  EXPECT_EQ(M->Kind, StatementKind::End);
  EXPECT_EQ(M->End, 29u);
  M = matchAtStart("DFTRACER_C_FUNCTION_START();");
  ASSERT_TRUE(M);
  EXPECT_EQ(M->Kind, StatementKind::Start);
}

TEST(StripPatternsTest, ACommentInsideIsNotAnnotatesForm) {
  EXPECT_FALSE(matchAtStart("DFTRACER_C_FUNCTION_END(/* why */);"));
  EXPECT_FALSE(matchAtStart("DFTRACER_C_FUNCTION_END()"));
  EXPECT_FALSE(matchAtStart("DFTRACER_C_FUNCTION_END(x);"));
  EXPECT_FALSE(matchAtStart("DFTRACER_C_FUNCTION_ENDS();"));
}

TEST(StripPatternsTest, MetadataMatchesWhatAnnotateWrites) {
  auto M = matchAtStart("DFTRACER_C_METADATA(annotate_meta_12, \"app\", "
                        "\"a\\x01\"\"b\");");
  ASSERT_TRUE(M);
  EXPECT_EQ(M->Kind, StatementKind::Metadata);
  // annotate names the variable annotate_meta_N, nothing else.
  EXPECT_FALSE(matchAtStart("DFTRACER_C_METADATA(app, \"k\", \"v\");"));
  EXPECT_FALSE(matchAtStart("DFTRACER_C_METADATA(annotate_meta_, \"k\", \"v\");"));
  EXPECT_FALSE(matchAtStart("DFTRACER_C_METADATA(annotate_meta_0, k, \"v\");"));
}

TEST(StripPatternsTest, CategoryUpdatesInBothLanguages) {
  auto M = matchAtStart("DFTRACER_C_FUNCTION_UPDATE_STR(\"comp\", \"io\");");
  ASSERT_TRUE(M);
  EXPECT_EQ(M->Kind, StatementKind::Category);
  M = matchAtStart("DFTRACER_CPP_FUNCTION_UPDATE(\"comp\", \"cpu\");");
  ASSERT_TRUE(M);
  EXPECT_EQ(M->Kind, StatementKind::Category);
  // The key is the rule set's, not a placeholder.
  EXPECT_FALSE(matchAtStart("DFTRACER_C_FUNCTION_UPDATE_STR(\"key\", \"io\");"));
}

TEST(StripPatternsTest, TheRuleSetDecidesNotTheNames) {
  auto Caliper = loadRuleSet("caliper", ANNOTATE_SOURCE_RULES_DIR);
  ASSERT_TRUE(bool(Caliper)) << llvm::toString(Caliper.takeError());
  auto M = matchAtStart("CALI_MARK_FUNCTION_BEGIN;", *Caliper);
  ASSERT_TRUE(M);
  EXPECT_EQ(M->Kind, StatementKind::Start);
  EXPECT_FALSE(matchAtStart("DFTRACER_C_FUNCTION_START();", *Caliper));
  EXPECT_FALSE(matchAtStart("CALI_MARK_FUNCTION_BEGIN;"));
}

TEST(StripPatternsTest, MarkersAreTheStatementsHeads) {
  std::vector<std::string> Markers = StripPatterns::markers(defaultOptions().Rules);
  for (const char *Name :
       {"DFTRACER_C_INIT", "DFTRACER_C_FUNCTION_START", "DFTRACER_C_METADATA",
        "DFTRACER_C_FUNCTION_UPDATE_STR", "DFTRACER_CPP_FUNCTION",
        "DFTRACER_CPP_FUNCTION_UPDATE", "DFTRACER_C_FUNCTION_END",
        "DFTRACER_C_FINI"})
    EXPECT_TRUE(llvm::is_contained(Markers, Name)) << Name;
  EXPECT_EQ(Markers.size(), 8u);
}

} // namespace
