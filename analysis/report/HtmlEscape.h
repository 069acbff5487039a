//===- HtmlEscape.h - Text for an HTML page ---------------------*- C++ -*-===//
//
// The one escape of the HTML the analyzer writes (the report, the findings
// and the comparison pages): & < > and " as entities, so a function name
// or path such as `</script><b>x</b>"&` is shown as text, in an element or
// in an attribute value.
//
// \code
//   Os << "<td>" << htmlEscape(Name) << "</td>";
// \endcode
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_ANALYZE_HTMLESCAPE_H
#define DFTRACER_ANALYZE_HTMLESCAPE_H

#include <string>

namespace dftanalyze {

/// S with &, <, > and " written as &amp; &lt; &gt; &quot;.
std::string htmlEscape(const std::string &S);

} // namespace dftanalyze

#endif
