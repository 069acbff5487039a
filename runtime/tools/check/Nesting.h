//===- Nesting.h - Spans must nest per thread -------------------*- C++ -*-===//
//
// On one thread (same file, pid and tid) any two spans are either disjoint or
// one contains the other. When the runtime's args.p_idx and args.level are
// present they must agree with that structure:
//
// \code
//   main   [0, 100)  level 1, p_idx 0
//   read   [10, 30)  level 2, p_idx <main's id>    ok
//   write  [25, 40)  overlaps read without nesting  -> problem
// \endcode
//
// A child whose p_idx names no span is the signature of a missing END: its
// parent was never closed, so it was never written.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_CHECK_NESTING_H
#define DFTRACER_CHECK_NESTING_H

#include "Trace.h"

#include <vector>

namespace dftcheck {

/// Adds nesting problems to Set and returns each span's self time (its
/// duration minus that of its direct children), indexed like Set.Spans.
std::vector<double> checkNesting(TraceSet &Set);

} // namespace dftcheck

#endif
