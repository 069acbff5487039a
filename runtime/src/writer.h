/*===- writer.h - The background thread that owns the trace file ----------===*
 *
 * Copying a line into the kernel costs about as much as formatting it, so a
 * traced thread does not call write(): when its buffer is full it hands the
 * whole buffer (no copy) to one writer thread per process and continues in
 * an empty one taken from a pool. The writer writes the queued buffers in
 * order, with one writev for everything queued, and returns them to the pool.
 *
 * Rules:
 *  - Every function here is called with the process lock held. The writer
 *    takes the lock only to pop the queue and to open the file.
 *  - While the writer runs it is the only one that touches the sink, and
 *    a full buffer is always queued: the thread that hands it over never
 *    encodes it (it would do so under the lock, the writer waiting), but
 *    for the hand-over that starts the writer, which writes its own buffer
 *    so that the file and its first events exist at once. When it does
 *    not run (never needed yet, could not be started, stopped at FINI,
 *    or in a forked child) lock holders write the sink directly.
 *  - The writer starts on the first full buffer, so a short program never
 *    has a second thread; it is stopped, with the queue written, at FINI or
 *    exit(). A buffer handed over where the thread may be running a signal
 *    handler (signals.h) does not start it: the next one does.
 *  - At most DFTRACER_WRITER_QUEUE_BYTES are queued or being written: past
 *    that, a thread handing over a buffer waits for the disk, as it would
 *    without a writer, instead of letting memory grow. The writer takes a
 *    few buffers at a time, so room comes back while it writes.
 *  - Memory is bounded: written buffers go back to a pool and are reused
 *    (never freed while the writer runs). The writer keeps StockChunks (18)
 *    empty ones in the pool, and a thread allocates one only when the pool
 *    is empty. So there are never more buffers than threads plus what the
 *    queue can hold plus the stock plus the one collecting lines output
 *    under the lock: DFTRACER_WRITER_QUEUE_BYTES + (threads + 20) x
 *    DFTRACER_CHUNK_BYTES in all, the queue's buffers being full but for
 *    less than one line each. Only those lines (the rest of a buffer at a
 *    thread's exit or FINI, file-name lines) are queued without waiting
 *    for room, packed into buffers of the pool.
 *  - A hand-over and a file-name line can run in a signal handler (its
 *    traced write() may fill the buffer), where malloc is unsafe: buffers
 *    are whole pages from the kernel (pages.h), never malloc's. Only the
 *    hand-over that starts the writer thread allocates (pthread_create),
 *    and it is never one made in a handler (docs/runtime.md, Signal
 *    handlers).
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_WRITER_H
#define DFTRACER_RUNTIME_WRITER_H

#include <stddef.h>

#ifndef DFTRACER_WRITER_QUEUE_BYTES
#define DFTRACER_WRITER_QUEUE_BYTES (16u << 20)
#endif

/* A thread's buffer: ~440 span lines. */
#define DFTRACER_CHUNK_BYTES (64u << 10)

/* A buffer of complete trace lines. Data[Begin, End) is still to be written;
 * a thread fills it from End up to Cap. */
struct dftracer_chunk {
  struct dftracer_chunk *Next;
  size_t Begin;
  size_t End;
  size_t Cap;
  char Data[];
};

/* A chunk of at least Cap bytes, or NULL when memory is exhausted. */
struct dftracer_chunk *dftracer_chunk_new(size_t Cap);
void dftracer_chunk_free(struct dftracer_chunk *C);

/* Takes Full, whose Data[Begin, End) is to be written, and returns an empty
 * chunk of at least MinCap bytes: a pooled or new one when the writer takes
 * Full, else Full itself after writing its bytes here. NULL only when memory
 * is exhausted (Full is then freed). */
struct dftracer_chunk *dftracer_writer_swap_locked(struct dftracer_chunk *Full,
                                                   size_t MinCap);

/* Append Len bytes to the trace: a copy is queued while the writer runs,
 * else they are written now. Dropped after FINI. */
void dftracer_writer_output_locked(const char *Data, size_t Len);

/* Stop the writer and write everything still queued. Releases the lock
 * while it waits for the writer to finish; with Join 0 (at _exit, where
 * pthread_join is unsafe) the writer thread is left to leave on its own. */
void dftracer_writer_stop_locked(int Join);

/* Fn runs when the trace file is opened, under the lock, after the file's
 * own first lines: the I/O layer's, whose forked child names the paths its
 * parent saw (io_core.c) before any event of them. NULL: nothing. */
void dftracer_writer_on_open(void (*Fn)(void));

/* In a forked child: the writer thread does not exist there; forget it and
 * its queue (the parent writes those bytes). */
void dftracer_writer_forget(void);

#endif
