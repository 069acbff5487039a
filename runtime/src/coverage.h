/*===- coverage.h - What the build could not annotate, in the trace -------===*
 *
 * A program built through the build integration (annotate-cc's link step,
 * annotate_target) carries the coverage of its sources as one JSON object,
 * static text in the program, which a generated constructor passes to
 * dftracer_register_coverage (<dftracer/dftracer.h>):
 *
 *   {"program":"app","files":[{"file":"/src/a.c","status":"annotated"},
 *     {"file":"/src/b.c","status":"failed","reason":"not annotated (...)"}]}
 *
 * The registration parses it once, at start-up, into the body of the
 * `coverage` record (docs/runtime.md, "Coverage"): the counts of all
 * sources, and the sources not annotated (failed, excluded) with their
 * reasons, at most CoverageListMax of them. The record is then written at
 * the top of every trace file (right after CONFIG), and at once when the
 * registration comes after the file opened. Nothing is allocated: the
 * bodies are static.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_COVERAGE_H
#define DFTRACER_RUNTIME_COVERAGE_H

/* Right after CONFIG in a trace file just opened (run_config.c), process
 * lock held: one `coverage` record per registration. No allocation. */
void dftracer_coverage_report_locked(void);

#endif
