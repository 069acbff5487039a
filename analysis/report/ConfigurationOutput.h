//===- ConfigurationOutput.h - The configuration, three ways ----*- C++ -*-===//
//
// The "Configuration" section of each report format (Configuration.h's
// programs); nothing at all for a trace without the records.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_REPORT_CONFIGURATIONOUTPUT_H
#define DFTRACER_REPORT_CONFIGURATIONOUTPUT_H

#include "analyze/Report.h"

#include <nlohmann/json.hpp>
#include <ostream>

namespace dftanalyze {

void printConfigurationText(std::ostream &Os, const Report &R);
/// The JSON report's "configuration": one object per program
/// (docs/analysis.md); an empty array without the records.
nlohmann::ordered_json configurationJson(const Report &R);
void printConfigurationHtml(std::ostream &Os, const Report &R);

} // namespace dftanalyze

#endif
