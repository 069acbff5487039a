/*===- node_info.h - The machine a process runs on ------------------------===*
 *
 * A `NODE` record at the top of each trace file (docs/trace-format.md):
 * host name, physical memory in bytes, online CPUs. Learnt once at load
 * (sysconf may read /sys), written with the file's first bytes, which may
 * happen in a signal handler: the record is formatted from what was learnt,
 * without allocating.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_NODE_INFO_H
#define DFTRACER_RUNTIME_NODE_INFO_H

/* At load, tracing on. */
void dftracer_node_setup(void);
/* Write the NODE record to the sink just opened. Caller holds the process
 * lock. */
void dftracer_node_report_locked(void);

#endif
