//===- HtmlEscape.cpp - Text for an HTML page -----------------------------===//

#include "HtmlEscape.h"

namespace dftanalyze {

std::string htmlEscape(const std::string &S) {
  std::string Out;
  Out.reserve(S.size());
  for (char C : S) {
    switch (C) {
    case '&': Out += "&amp;"; break;
    case '<': Out += "&lt;"; break;
    case '>': Out += "&gt;"; break;
    case '"': Out += "&quot;"; break;
    default: Out += C;
    }
  }
  return Out;
}

} // namespace dftanalyze
