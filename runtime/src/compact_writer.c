#define _GNU_SOURCE
#include "compact_writer.h"

#include "internal.h"
#include "busy.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int dftracer_trace_format_;

/* libzstd is loaded with dlopen when the library loads, not linked: a
 * program traced in the default format, or a static link, needs nothing
 * more than before. Without it (no libzstd1) blocks are written
 * uncompressed, still readable. */
static struct dftracer_compact_zstd Z = {.Level = 1};

static void loadZstd(void) {
  void *H;
  const char *Level = getenv("DFTRACER_COMPACT_LEVEL");
  if (Level && *Level) {
    char *End;
    long V = strtol(Level, &End, 10);
    if (*End == '\0' && V >= 0 && V <= 19)
      Z.Level = (int)V;
    else
      fprintf(stderr, "dftracer: DFTRACER_COMPACT_LEVEL='%s' is not 0..19; "
                      "using 1\n", Level);
  }
  if (Z.Level == 0)
    return;
  H = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL);
  if (H) {
    *(void **)&Z.EstimateCCtx = dlsym(H, "ZSTD_estimateCCtxSize");
    *(void **)&Z.InitStaticCCtx = dlsym(H, "ZSTD_initStaticCCtx");
    *(void **)&Z.CompressCCtx = dlsym(H, "ZSTD_compressCCtx");
    *(void **)&Z.Bound = dlsym(H, "ZSTD_compressBound");
    *(void **)&Z.IsError = dlsym(H, "ZSTD_isError");
  }
  if (!H || !Z.EstimateCCtx || !Z.InitStaticCCtx || !Z.CompressCCtx ||
      !Z.Bound || !Z.IsError) {
    fprintf(stderr, "dftracer: DFTRACER_TRACE_FORMAT=compact: libzstd.so.1 "
                    "not usable (%s); blocks are written uncompressed\n",
            H ? "symbols missing" : dlerror());
    Z.Level = 0;
  }
}

/* After tracer.c's onLoad (101), which read the configuration. */
__attribute__((constructor(102))) static void compactOnLoad(void) {
  const char *Format = getenv("DFTRACER_TRACE_FORMAT");
  int Busy;
  if (!dftracer_process_.Config.Enable || !Format || !*Format ||
      strcmp(Format, "pfw") == 0)
    return;
  if (strcmp(Format, "compact") != 0) {
    fprintf(stderr, "dftracer: DFTRACER_TRACE_FORMAT='%s' is neither 'pfw' "
                    "nor 'compact'; writing .pfw\n", Format);
    return;
  }
  Busy = dftracer_busy_enter(); /* dlopen's own reads are not traced */
  loadZstd();
  dftracer_busy_leave(Busy);
  dftracer_trace_format_ =
      dftracer_env_flag(getenv("DFTRACER_TEST_BOTH_FORMATS")) ? DftFormatBoth
                                                              : DftFormatCompact;
}

struct dftracer_compact *dftracer_compact_start(dftracer_compact_out Out,
                                                void *Arg) {
  return dftracer_compact_start_with(&Z, Out, Arg);
}
