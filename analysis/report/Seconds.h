//===- Seconds.h - Microseconds printed as seconds --------------*- C++ -*-===//
//
// Every time in the text report and the findings is printed this way:
// exact (integer division, no floating point) with six decimals.
//
// \code
//   secondsText(1234567) == "1.234567"
//   secondsText(12)      == "0.000012"
// \endcode
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_REPORT_SECONDS_H
#define DFTRACER_REPORT_SECONDS_H

#include <cstdint>
#include <cstdio>
#include <string>

namespace dftanalyze {

inline std::string secondsText(uint64_t Us) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%llu.%06llu",
                static_cast<unsigned long long>(Us / 1000000),
                static_cast<unsigned long long>(Us % 1000000));
  return Buf;
}

} // namespace dftanalyze

#endif
