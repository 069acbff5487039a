#define _GNU_SOURCE
#include "node_info.h"

#include "internal.h"
#include "records.h"
#include "run_config.h"
#include "sink.h"

#include <string.h>
#include <unistd.h>

static char Host[256];
static unsigned long long MemTotal;
static long Cpus;

void dftracer_node_setup(void) {
  long Pages = sysconf(_SC_PHYS_PAGES), PageSize = sysconf(_SC_PAGESIZE);
  if (gethostname(Host, sizeof(Host) - 1) != 0)
    Host[0] = '\0';
  Host[sizeof(Host) - 1] = '\0';
  MemTotal = Pages > 0 && PageSize > 0
                 ? (unsigned long long)Pages * (unsigned long long)PageSize
                 : 0;
  Cpus = sysconf(_SC_NPROCESSORS_ONLN);
  dftracer_run_config_setup(); /* CONFIG's facts, learnt at load too */
}

void dftracer_node_report_locked(void) {
  char Line[DftRecordFixedBytes + 6 * sizeof(Host) + 64], *Out = Line;
  Out = dftracer_record_head(Out, "NODE");
  Out = dftracer_record_str(Out, "hostname", Host, 1);
  Out = dftracer_record_u64(Out, "mem_total", MemTotal, 0);
  Out = dftracer_record_u64(Out, "cpus", Cpus > 0 ? (unsigned long long)Cpus : 0,
                            0);
  Out = dftracer_record_tail(Out);
  dftracer_sink_write(&dftracer_process_.Sink, Line, (size_t)(Out - Line));
}
