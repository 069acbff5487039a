//===- Verdict.h - Did the change make the run faster? ------------*- C++
//-*-===//
//
// One verdict from the replicates of a run metric on both sides: each
// side's summary (Summary.h), the ratio of medians with its bootstrap
// interval (Bootstrap.h), the rank test's p (RankTest.h), and a status:
//
//   faster                 p < Alpha and the interval excludes 1, in the
//                          better direction of the metric (less time, more
//                          bytes per second)
//   slower                 the same, in the worse direction
//   no detectable change   the test or the interval leaves no change
//                          possible (a real change smaller than the noise
//                          is possible: Why says how many runs would see
//                          DetectChange)
//   cannot decide          the design cannot reach p < Alpha whatever the
//                          runs measure: one run a side (smallest p 1.0),
//                          3 against 3 (0.10), or a side without runs
//
// Why says it in words; RunsNeeded is the runs a side that the observed
// spread needs to detect a change of DetectChange (default 10%) with
// Power (80%) at Alpha, two-sided:
//
//   n = (z(1 - Alpha/2) + z(Power))^2 * 2 * CV^2 / DetectChange^2 / 0.864
//
// the normal-theory sample size for a difference of means of DetectChange
// times the mean, CV the larger side's coefficient of variation, divided by
// 0.864, the Mann-Whitney test's smallest asymptotic efficiency against the
// t-test (Hodges & Lehmann 1956), and never below the fewest runs a side
// whose smallest p is under Alpha (4 at 0.05). 0: no side has two runs, so
// the spread is unknown.
//
// \code
//   Verdict V = decide({10, 11, 10.5, 10.2}, {5, 5.5, 5.2, 5.1},
//                      Direction::LowerIsBetter);
//   // V.Status "faster", V.Test.P 0.029, V.Ratio.Ratio 0.50
// \endcode
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_STATS_VERDICT_H
#define DFTRACER_STATS_VERDICT_H

#include "Bootstrap.h"
#include "RankTest.h"
#include "Summary.h"

#include <string>
#include <vector>

namespace dftstats {

enum class Direction { LowerIsBetter, HigherIsBetter };

struct VerdictOptions {
  double Alpha = 0.05;
  double DetectChange = 0.10; // relative
  double Power = 0.80;
  BootstrapOptions Boot;
};

struct Verdict {
  Summary Before, After;
  RatioInterval Ratio; // after / before
  RankTest Test;
  double SmallestP = 1; // of this design (RankTest.h)
  std::string Status; // faster | slower | no detectable change | cannot decide
  std::string Why;    // in words, one sentence or two
  size_t RunsNeeded = 0; // a side, for DetectChange; 0 when unknown
  double DetectChange = 0.10;
  double Alpha = 0.05;
};

Verdict decide(const std::vector<double> &Before,
               const std::vector<double> &After, Direction D,
               const VerdictOptions &O = {});

/// The runs a side needed to detect a relative change Change at Alpha
/// with Power when the coefficient of variation is Cv (see above).
size_t runsNeeded(double Cv, double Change, double Alpha, double Power);

/// z such that P(Z <= z) = Q for a standard normal Z (0 < Q < 1).
double normalQuantile(double Q);

} // namespace dftstats

#endif
