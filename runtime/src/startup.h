/*===- startup.h - What the runtime checks when it loads ------------------===*
 *
 * Called once from the constructor (tracer.c) with the configuration just
 * read, before tracing starts; may allocate:
 *  - a launcher (launcher.h) turns tracing off for itself;
 *  - with tracing on: the tmpfs mounts under /dev (io_filter.h), the
 *    descriptor table of the untraced counts (untraced.h), and whether the
 *    program's calls reach each layer's wrappers (layer_check.h), and the
 *    handler that finishes the trace before a signal ends the process
 *    (signals.h).
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_STARTUP_H
#define DFTRACER_RUNTIME_STARTUP_H

#include "config.h"

void dftracer_startup_checks_(struct dftracer_config *Config);

#endif
