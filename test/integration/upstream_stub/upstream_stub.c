/* upstream_stub.c - a test stand-in for upstream DFTracer v1's C library.
 *
 * Test only (integration.upstream_stub): NOT upstream. It writes the lines
 * upstream v1.x writes for annotated C code, in the shapes of
 * docs/trace-format.md "Upstream DFTracer", so the readers are checked on a
 * program that really ran against upstream's API:
 *  - one process-wide event counter and stack: every event (metadata lines
 *    too) takes the next index; CM lines (DFTRACER_C_METADATA) reuse the
 *    index of the span they are written in, as the readers expect;
 *  - HH, thread_name, SH (cmd, exec), PR rank and process_name metadata,
 *    `hhash` (a 64-bit decimal, often above 2^63) in every `args`;
 *  - the tracer's own "start" and "end" spans, "cat":"dftracer", `end` with
 *    `num_events` = the counter;
 *  - DFTRACER_INC_METADATA=1: spans carry args with `level` and `p_idx`
 *    (-1 at the root), the id is the span's own index; unset (upstream's
 *    default): spans carry no args and the id is the counter when the span
 *    ended (a parent shares its last child's);
 *  - `[` over the first line's two leading spaces at finalize, `]` appended
 *    without a newline; file DFTRACER_LOG_FILE-<exec>-<pid>-app.pfw.
 * Functions only: no I/O interception (no POSIX/STDIO layer), no MPI-IO or
 * HDF5 (upstream v1 has none either). The rank comes from the launcher's
 * environment (PMI_RANK, OMPI_COMM_WORLD_RANK) so the stub needs no libmpi.
 * Single-threaded programs only.
 */
#define _GNU_SOURCE
#include <dftracer/dftracer.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

struct region {
  struct DFTracerData data; /* first: callers hold &data */
  const char *name, *cat;
  int type;
  unsigned long long start;
  char args[512]; /* ,"key":value pairs from the UPDATE macros */
  size_t len;
};

static FILE *out;
static int with_meta, pid, first_line = 1, rank_written;
static unsigned long long hhash;
static long index_; /* upstream's event counter */
static long stack[4096];
static int depth;

static unsigned long long now_us(void) {
  struct timeval tv;
  gettimeofday(&tv, NULL);
  return (unsigned long long)tv.tv_sec * 1000000ull + (unsigned long long)tv.tv_usec;
}

static unsigned long long fnv1a(const char *s) {
  unsigned long long h = 14695981039346656037ull;
  for (; *s; ++s)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

/* s as a JSON string body into buf (names here are paths and identifiers). */
static const char *esc(const char *s, char *buf, size_t size) {
  size_t n = 0;
  for (; s && *s && n + 7 < size; ++s) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      buf[n++] = '\\', buf[n++] = (char)c;
    else if (c < 0x20)
      n += (size_t)snprintf(buf + n, size - n, "\\u%04x", c);
    else
      buf[n++] = (char)c;
  }
  buf[n] = '\0';
  return buf;
}

static void line(const char *fmt, ...) {
  va_list ap;
  fputs(first_line ? "  " : "", out); /* "[\n" overwrites these at the end */
  first_line = 0;
  va_start(ap, fmt);
  vfprintf(out, fmt, ap);
  va_end(ap);
  fputc('\n', out);
}

static long enter(void) {
  ++index_;
  if (depth < (int)(sizeof stack / sizeof stack[0]))
    stack[depth] = index_;
  ++depth;
  return index_;
}
static void leave(void) { --depth; }

/* One "M" line of its own index; value quoted unless it is a number. */
static void meta_line(const char *name, const char *key, const char *value,
                      int quoted) {
  char k[1024], v[1024];
  long id = enter();
  line("{\"id\":%ld,\"name\":\"%s\",\"cat\":\"dftracer\",\"pid\":%d,\"tid\":%d,"
       "\"ph\":\"M\",\"args\":{\"hhash\":%llu,\"name\":\"%s\",\"value\":%s%s%s}}",
       id, name, pid, pid, hhash, esc(key, k, sizeof k), quoted ? "\"" : "",
       esc(value, v, sizeof v), quoted ? "\"" : "");
  leave();
}

/* Upstream writes the rank once MPI is up, at the next event it logs. */
static void rank_lines(void) {
  const char *r = getenv("PMI_RANK");
  char name[64];
  if (rank_written)
    return;
  if (!r)
    r = getenv("OMPI_COMM_WORLD_RANK");
  if (!r)
    return;
  rank_written = 1;
  meta_line("PR", "rank", r, 1);
  snprintf(name, sizeof name, "Rank %s", r);
  meta_line("process_name", name, "process_name", 1);
}

/* A complete span for the region on top of the stack. */
static void span(const char *name, const char *cat, unsigned long long ts,
                 unsigned long long dur, const char *args) {
  long local = index_;
  long parent = depth > 1 ? stack[depth - 2] : -1;
  rank_lines();
  if (!with_meta) {
    line("{\"id\":%ld,\"name\":\"%s\",\"cat\":\"%s\",\"pid\":%d,\"tid\":%d,"
         "\"ts\":%llu,\"dur\":%llu,\"ph\":\"X\"}",
         local, name, cat, pid, pid, ts, dur);
    return;
  }
  line("{\"id\":%ld,\"name\":\"%s\",\"cat\":\"%s\",\"pid\":%d,\"tid\":%d,"
       "\"ts\":%llu,\"dur\":%llu,\"ph\":\"X\",\"args\":{\"hhash\":%llu%s,"
       "\"level\":%d,\"p_idx\":%ld}}",
       stack[depth - 1], name, cat, pid, pid, ts, dur, hhash, args, depth,
       parent);
}

void initialize_main(const char *log_file, const char *data_dirs,
                     int *process_id) {
  const char *enable = getenv("DFTRACER_ENABLE"), *prefix;
  const char *meta = getenv("DFTRACER_INC_METADATA");
  char path[4096], host[256] = "", args[1024], date[64], hs[32];
  time_t t = time(NULL);
  (void)data_dirs;
  if (out || !enable || strcmp(enable, "1") != 0)
    return;
  prefix = getenv("DFTRACER_LOG_FILE");
  if (!prefix)
    prefix = log_file ? log_file : "./trace";
  pid = process_id ? *process_id : (int)getpid();
  snprintf(path, sizeof path, "%s-%s-%d-app.pfw", prefix,
           program_invocation_short_name, pid);
  if (!(out = fopen(path, "w+"))) {
    fprintf(stderr, "upstream_stub: %s: %s\n", path, strerror(errno));
    return;
  }
  with_meta = meta && strcmp(meta, "1") == 0;
  gethostname(host, sizeof host - 1);
  hhash = fnv1a(host);
  snprintf(hs, sizeof hs, "%llu", hhash);
  meta_line("HH", host, hs, 0);
  snprintf(hs, sizeof hs, "%d", pid);
  meta_line("thread_name", hs, "thread_name", 1);
  if (with_meta) {
    meta_line("SH", program_invocation_name, "11", 0);
    meta_line("SH", program_invocation_short_name, "12", 0);
  }
  strftime(date, sizeof date, "%a %b %e %H:%M:%S %Y", localtime(&t));
  snprintf(args, sizeof args,
           ",\"version\":\"1.0.8\",\"exec_hash\":12,\"cmd_hash\":11,"
           "\"date\":\"%s\",\"ppid\":%d",
           date, (int)getppid());
  enter();
  span("start", "dftracer", now_us(), 0, args);
  leave();
}

void initialize_no_bind(const char *log_file, const char *data_dirs,
                        int *process_id) {
  initialize_main(log_file, data_dirs, process_id);
}

void finalize(void) {
  char args[64];
  if (!out)
    return;
  snprintf(args, sizeof args, ",\"num_events\":%ld", index_);
  enter();
  span("end", "dftracer", now_us(), 0, args);
  leave();
  fputc(']', out);
  if (fseek(out, 0, SEEK_SET) == 0)
    fputs("[\n", out);
  fclose(out);
  out = NULL;
}

struct DFTracerData *initialize_region(ConstEventNameType name,
                                       ConstEventNameType cat, int type) {
  struct region *r;
  if (!out || !(r = calloc(1, sizeof *r)))
    return NULL;
  r->data.profiler = r;
  r->name = name;
  r->cat = cat;
  r->type = type;
  if (type == DF_DATA_EVENT) {
    enter();
    r->start = now_us();
  }
  return &r->data;
}

void finalize_region(struct DFTracerData *data) {
  struct region *r = data ? (struct region *)data->profiler : NULL;
  char k[256], v[1024];
  if (!r)
    return;
  if (out && r->type == DF_METADATA_EVENT) {
    /* METADATA passes key and value as name and cat, as upstream does. */
    rank_lines();
    line("{\"id\":%ld,\"name\":\"CM\",\"cat\":\"dftracer\",\"pid\":%d,"
         "\"tid\":%d,\"ph\":\"M\",\"args\":{\"hhash\":%llu,\"name\":\"%s\","
         "\"value\":\"%s\"}}",
         depth > 0 ? stack[depth - 1] : index_, pid, pid, hhash,
         esc(r->name, k, sizeof k), esc(r->cat, v, sizeof v));
  } else if (out) {
    r->args[r->len] = '\0';
    span(r->name, r->cat, r->start, now_us() - r->start, r->args);
    leave();
  }
  free(r);
}

static void add_arg(struct DFTracerData *data, const char *key,
                    const char *fmt, const char *value) {
  struct region *r = data ? (struct region *)data->profiler : NULL;
  char k[256], v[512];
  int n;
  if (!r || !with_meta || r->type != DF_DATA_EVENT)
    return;
  n = snprintf(r->args + r->len, sizeof r->args - r->len, fmt,
               esc(key, k, sizeof k), esc(value, v, sizeof v));
  if (n > 0 && (size_t)n < sizeof r->args - r->len)
    r->len += (size_t)n;
}

void update_metadata_int(struct DFTracerData *data, const char *key,
                         int value) {
  char v[32];
  snprintf(v, sizeof v, "%d", value);
  add_arg(data, key, ",\"%s\":%s", v);
}

void update_metadata_string(struct DFTracerData *data, const char *key,
                            const char *value) {
  add_arg(data, key, ",\"%s\":\"%s\"", value);
}
