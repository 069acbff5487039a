//===- Summary.cpp - Median, range and spread of replicates ---------------===//

#include "Summary.h"

#include <algorithm>
#include <cmath>

namespace dftstats {

double median(std::vector<double> V) {
  if (V.empty())
    return 0;
  size_t Mid = V.size() / 2;
  std::nth_element(V.begin(), V.begin() + Mid, V.end());
  double Upper = V[Mid];
  if (V.size() % 2)
    return Upper;
  double Lower = *std::max_element(V.begin(), V.begin() + Mid);
  return (Lower + Upper) / 2;
}

Summary summarize(const std::vector<double> &V) {
  Summary S;
  S.N = V.size();
  if (V.empty())
    return S;
  S.Median = median(V);
  S.Min = *std::min_element(V.begin(), V.end());
  S.Max = *std::max_element(V.begin(), V.end());
  double Sum = 0;
  for (double X : V)
    Sum += X;
  S.Mean = Sum / static_cast<double>(V.size());
  if (V.size() > 1 && S.Mean != 0) {
    double Sq = 0;
    for (double X : V)
      Sq += (X - S.Mean) * (X - S.Mean);
    S.Cv =
        std::sqrt(Sq / static_cast<double>(V.size() - 1)) / std::fabs(S.Mean);
  }
  return S;
}

} // namespace dftstats
