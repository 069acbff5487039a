//===- FunctionStripper.h - One function's annotations out again -*- C++
//-*-===//
//
// `annotate --strip` (docs/rules.md §13) for one function: finds what
// annotate wrote in it, from the AST, the rule set's statements as tokens
// (StripPatterns) and the preprocessor record, and plans edits that remove
// exactly those bytes:
//
//   int f(int fd)                           int f(int fd)
//   {                                       {
//     DFTRACER_C_FUNCTION_START();            if (fd < 0)
//     if (fd < 0) { /* annotate */    ==>       return -1;
//       DFTRACER_C_FUNCTION_END();            return g(fd);
//       return -1;                          }
//     }
//     { int annotate_ret = (g(fd)); DFTRACER_C_FUNCTION_END(); return
//     annotate_ret; }
//   }
//
// Rules, in the order they apply:
//  1. A statement is annotate's when it holds a rule-set statement's tokens
//     (any spacing, no comment among them), stands on its own in a block of
//     the function, and where annotate writes it: START (after INIT, before
//     METADATA and the category update) first in the body, or first in
//     the scope an entry macro opens, right after it (EntryScope.h), or in
//     main right after the statement calling MPI_Init; END (before FINI) right before
//     a return or the body's closing `}`, or, in main, before any
//     statement.
//  2. Statements with only white space between them are one group, taken
//     out with the layout annotate gives a group: a START group first on
//     its line takes the line break before it, an END group alone on its
//     line takes its line, an inline group one space (after END, before
//     START), so that a CRLF file and comments written next to an END stay
//     as they are.
//  3. `{ T annotate_ret =G1(E)G2; END(); return annotate_ret; }` (and the
//     void `{G1(E)G2; END(); return; }`) becomes `returnG1EG2;`, E's bytes.
//  4. Braces whose `{` carries AddedBraceMarker go with their white space
//     before them when one statement is left in them; otherwise they are
//     needed now and only the marker goes, with a warning.
//  5. A function where a marker macro of the rule set was expanded outside
//     rules 1-3 (moved, inside a user macro, in an expression) keeps all
//     its annotations, each reason a warning: removing START but not an
//     END would not compile.
//
// What the file holds besides its functions (the include, #line
// directives) is StripPlanner's.
//
//===----------------------------------------------------------------------===//

#ifndef ANNOTATE_LIB_FUNCTIONSTRIPPER_H
#define ANNOTATE_LIB_FUNCTIONSTRIPPER_H

#include "AnnotateInternal.h"
#include "StripPatterns.h"

#include "clang/AST/Decl.h"

namespace annotate {

/// Plans the removal of FD's annotations (FD's body is in Text's file) into
/// Edits, sorted by offset and not overlapping. False, with no edit and
/// each reason a warning (Diagnostic::Unremoved), when the function keeps
/// its annotations (rule 5, or edits that would overlap).
bool stripFunction(PlanContext &PC, const SourceText &Text,
                   const StripPatterns &Patterns, const clang::FunctionDecl &FD,
                   std::vector<Edit> &Edits);

} // namespace annotate

#endif
