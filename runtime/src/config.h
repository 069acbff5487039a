/*===- config.h - Environment variables of the runtime --------------------===*
 *
 * Read once, when the library is loaded, so START never calls getenv.
 *
 *   DFTRACER_ENABLE=1               tracing on (anything else: off)
 *   DFTRACER_LOG_FILE=/out/trace    path prefix, default "./trace"
 *   DFTRACER_TRACE_COMPRESSION=1    gzip the trace (.pfw.gz)
 *   DFTRACER_INC_METADATA=1         keep UPDATE key/values in "args"
 *   DFTRACER_CLOCK=monotonic        timestamps from clock_gettime, never
 *                                   the time-stamp counter (clock.h)
 *   DFTRACER_DATA_DIR=/a:/b | all   which files' I/O is traced (io_filter.h)
 *   DFTRACER_DISABLE_IO=1           no I/O events at all; per layer:
 *   DFTRACER_DISABLE_POSIX=1, DFTRACER_DISABLE_STDIO=1,
 *   DFTRACER_DISABLE_MPIIO=1, DFTRACER_DISABLE_HDF5=1
 *   DFTRACER_THROTTLE=0             never throttle hot tiny functions
 *   DFTRACER_THROTTLE_CALLS=N       ... after N calls (throttle.h)
 *   DFTRACER_THROTTLE_US=T          ... whose mean is under T microseconds
 *   DFTRACER_THROTTLE_MAX_SPANS=K   ... or once it has written K spans,
 *                                   whatever their mean; 0: no cap
 *   DFTRACER_MAX_TRACE_SIZE=S[K|M|G] trace size budget; 0: none (budget.h)
 *   DFTRACER_MEM_ALIGNMENT=N        a data call's buffer not at a multiple
 *                                   of N bytes gets `mem_align` (io_core.h)
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_CONFIG_H
#define DFTRACER_RUNTIME_CONFIG_H

#include <stddef.h>

/* The I/O layers, as bits of dftracer_config.IoLayers. */
enum {
  DftLayerPosix = 1,
  DftLayerStdio = 2,
  DftLayerMpiio = 4,
  DftLayerHdf5 = 8,
  DftLayerAll = 15
};

struct dftracer_config {
  int Enable;
  int Compression;
  int IncMetadata;
  int MonotonicClock; /* DFTRACER_CLOCK=monotonic */
  unsigned IoLayers; /* DftLayer* bits of the I/O layers to trace */
  /* Throttling (throttle.h): 0 calls means off. */
  unsigned long long ThrottleCalls;
  unsigned long long ThrottleUs;
  unsigned long long ThrottleMaxSpans; /* 0: no cap */
  /* DFTRACER_THROTTLE_TIME: how a throttled call's time is counted
   * (DftThrottleTime*), and DFTRACER_THROTTLE_SAMPLE, 1 in how many calls
   * sampled mode times (on average). */
  int ThrottleTime;
  unsigned long long ThrottleSample;
  /* DFTRACER_MAX_TRACE_SIZE in bytes; MaxTraceSizeSet is 0 when unset (the
   * default then comes from the file system's free space, budget.h). */
  unsigned long long MaxTraceSize;
  int MaxTraceSizeSet;
  /* DFTRACER_MEM_ALIGNMENT: a power of two. */
  unsigned long long MemAlignment;
  /* DFTRACER_FLUSH_INTERVAL_MS: how often the writer takes what every
   * thread has finished, whatever its buffer's fill (writer.c); 0: only
   * when a buffer is full and at the end. Bounds what a SIGKILL loses. */
  unsigned long long FlushIntervalMs;
  /* DFTRACER_DATA_DIR, or "" when unset (INIT's data_dirs may then apply). */
  char DataDir[4096];
  /* Prefix from DFTRACER_LOG_FILE; empty when unset, so INIT's log_file
   * argument can fill it before the default applies. */
  char LogPrefix[4096];
};

/* Fill *Config from the environment. */
void dftracer_config_from_env(struct dftracer_config *Config);

/* Store Prefix in Config->LogPrefix, made absolute against the current
 * directory: the file is created at the first flush, possibly after the
 * program has changed directory. A prefix ending in '/' means "<dir>/trace". */
void dftracer_config_set_prefix(struct dftracer_config *Config,
                                const char *Prefix);

/* What a process killed without running any code loses at most: its
 * events of the last second (docs/runtime.md, "Signals"). */
enum { DftFlushIntervalMsDefault = 1000 };
/* Defaults of the throttle (docs/runtime.md, docs/performance.md). */
enum { DftThrottleCallsDefault = 1000, DftThrottleUsDefault = 10 };
/* The spans one name may write per thread whatever its mean: in a library
 * annotated whole, functions that only call traced ones keep inclusive
 * means above DftThrottleUsDefault and wrote millions of spans (HDF5's
 * testhdf5, docs/performance.md). */
enum { DftThrottleMaxSpansDefault = 10000 };
/* exact: every throttled call reads the clock twice (its dur is what its
 * span would have said); sampled: 1 in ThrottleSample calls does, and the
 * total time is estimated from them (calls stay exact). */
enum {
  DftThrottleTimeExact,
  DftThrottleTimeSampled,
  DftThrottleTimeDefault = DftThrottleTimeSampled
};
enum { DftThrottleSampleDefault = 32 };

/* The memory alignment a data call's buffer is checked against, in bytes:
 * Darshan's default (POSIX_MEM_ALIGNMENT), at most 2^30. */
enum { DftMemAlignmentDefault = 8, DftMemAlignmentMax = 1 << 30 };

/* True for "1", "true", "yes", "on" in any case; upstream documents "1". */
int dftracer_env_flag(const char *Value);

#endif
