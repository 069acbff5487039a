/*===- records.h - The runtime's own metadata records ---------------------===*
 *
 * The records of the shared contract (docs/trace-format.md, "Records of the
 * runtime"): `{"id":N,"name":"<name>","cat":"dftracer","pid":P,"tid":T,
 * "ph":"M","args":{...}}`, one line each, with the process's next id. They
 * are formatted into the caller's buffer with the json_writer functions:
 * no allocation, so the finish paths (a _exit in a signal handler) may
 * write them.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_RECORDS_H
#define DFTRACER_RUNTIME_RECORDS_H

#include <stddef.h>

/* Bytes of the head, and of the `}}\n` tail, beside the args. */
enum { DftRecordFixedBytes = 160 };

/* `{"id":..,"name":"<Name>",...,"args":{` for the calling thread. */
char *dftracer_record_head(char *Out, const char *Name);
/* `"<Key>":<escaped Value>`, preceded by a comma unless First. */
char *dftracer_record_str(char *Out, const char *Key, const char *Value,
                          int First);
/* `"<Key>":<Value>`, preceded by a comma unless First. */
char *dftracer_record_u64(char *Out, const char *Key, unsigned long long Value,
                          int First);
/* `}}\n` */
char *dftracer_record_tail(char *Out);

/* Append the complete record line Line (Len bytes) to the calling thread's
 * buffer, after the events it finished: the I/O layers' records of what a
 * call set up (MPIIO_HINTS, HDF5_FILE, HDF5_DSET) follow the call's event.
 * Dropped when the thread has no state (no memory). */
void dftracer_record_emit(const char *Line, size_t Len);

#endif
