//===- Verdict.cpp - Did the change make the run faster? ------------------===//

#include "Verdict.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace dftstats {

namespace {

std::string fmt(const char *Format, double V) {
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), Format, V);
  return Buf;
}

std::string runs(size_t N) {
  return std::to_string(N) + (N == 1 ? " run" : " runs");
}

} // namespace

double normalQuantile(double Q) {
  // Bisection on the normal CDF: 200 halvings of [-40, 40] are exact to
  // the last bit, and this is called a few times per comparison.
  double Lo = -40, Hi = 40;
  for (int I = 0; I < 200; ++I) {
    double Mid = (Lo + Hi) / 2;
    double Cdf = 0.5 * std::erfc(-Mid / std::sqrt(2.0));
    (Cdf < Q ? Lo : Hi) = Mid;
  }
  return (Lo + Hi) / 2;
}

size_t runsNeeded(double Cv, double Change, double Alpha, double Power) {
  size_t Fewest = fewestRunsForAlpha(Alpha);
  if (Change <= 0)
    return 0;
  double Z = normalQuantile(1 - Alpha / 2) + normalQuantile(Power);
  double N = Z * Z * 2 * Cv * Cv / (Change * Change) / 0.864;
  if (!(N < 1e6))
    return 1000000;
  return std::max(Fewest, static_cast<size_t>(std::ceil(N)));
}

Verdict decide(const std::vector<double> &Before,
               const std::vector<double> &After, Direction D,
               const VerdictOptions &O) {
  Verdict V;
  V.DetectChange = O.DetectChange;
  V.Alpha = O.Alpha;
  V.Before = summarize(Before);
  V.After = summarize(After);
  V.Ratio = ratioOfMedians(Before, After, O.Boot);
  V.Test = rankTest(Before, After);
  V.SmallestP = smallestP(Before.size(), After.size());
  double Cv = -1; // the larger spread of a side with two runs or more
  if (Before.size() > 1)
    Cv = std::max(Cv, V.Before.Cv);
  if (After.size() > 1)
    Cv = std::max(Cv, V.After.Cv);
  if (Cv >= 0)
    V.RunsNeeded = runsNeeded(Cv, O.DetectChange, O.Alpha, O.Power);
  std::string Need;
  std::string Pct = fmt("%.0f%%", 100 * O.DetectChange);
  if (V.RunsNeeded)
    Need = "a change of " + Pct + " needs about " + runs(V.RunsNeeded) +
           " a side at the observed spread (CV " + fmt("%.1f%%", 100 * Cv) +
           ")";
  else
    Need = "the spread is unknown until a side has 2 runs";

  if (Before.empty() || After.empty()) {
    V.Status = "cannot decide";
    V.Why = "no runs on one side";
    return V;
  }
  if (V.SmallestP >= O.Alpha) {
    size_t Fewest = fewestRunsForAlpha(O.Alpha);
    V.Status = "cannot decide";
    V.Why = runs(Before.size()) + " against " + runs(After.size()) +
            ": the smallest p any result can give is " +
            fmt("%.3g", V.SmallestP) + ", not below " + fmt("%g", O.Alpha) +
            "; run at least " + runs(std::max(Fewest, V.RunsNeeded)) +
            " a side; " + Need;
    return V;
  }
  bool Excludes = V.Ratio.Valid && (V.Ratio.High < 1 || V.Ratio.Low > 1);
  if (V.Test.P < O.Alpha && Excludes) {
    bool Up = V.Ratio.Ratio > 1;
    bool Better = D == Direction::LowerIsBetter ? !Up : Up;
    V.Status = Better ? "faster" : "slower";
    V.Why = "p = " + fmt("%.3g", V.Test.P) + " < " + fmt("%g", O.Alpha) +
            " and the " + fmt("%.0f%%", 100 * V.Ratio.Level) +
            " interval of the ratio excludes 1";
    return V;
  }
  V.Status = "no detectable change";
  if (V.Test.P >= O.Alpha)
    V.Why =
        "p = " + fmt("%.3g", V.Test.P) + ", not below " + fmt("%g", O.Alpha);
  else
    V.Why = "the interval of the ratio includes 1";
  V.Why += "; " + Need;
  return V;
}

} // namespace dftstats
