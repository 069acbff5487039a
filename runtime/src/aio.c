/*===- aio.c - POSIX asynchronous I/O: requests and their completion ------===*
 *
 * glibc's aio_read/aio_write queue the request and return; a helper thread
 * of glibc's makes the pread64/pwrite64 later, with internal calls that no
 * wrapper can see (darshan #63). ROMIO's non-blocking MPI-IO
 * (MPI_File_iwrite_at, ...) goes this way. What the program's own threads
 * do is recorded, where they do it:
 *
 *  - the request, `aio_read`/`aio_write` (and 64): an event of the call
 *    that posts it, nested under what was open on the posting thread (an
 *    MPI_File_i* call under ROMIO), with the request's `fd`, `count`
 *    (aio_nbytes), `offset` (aio_offset) and `ret` (0: queued). Its bytes
 *    are `count` when queued, as requested, like MPI-IO's non-blocking
 *    forms: it is the one event of the transfer that sits where the
 *    program asked for it;
 *  - the completion, `aio_return` (and 64): the same `fd`, `count`,
 *    `offset`, and `ret`, the transfer's result (bytes moved, or -1). It
 *    nests wherever the program collects the result (ROMIO: inside
 *    MPI_Wait or MPI_Test, not intercepted, or inside whichever MPI call's
 *    progress polled the request), so readers count no bytes for it: they
 *    are the request's (docs/trace-format.md).
 *
 * The transfer's own time is spent on glibc's helper thread and is in no
 * event. aio_error and aio_suspend (polls and waits, called in loops),
 * aio_fsync, aio_cancel and lio_listio make no event (docs/runtime.md).
 *
 * The request's fields are read before the real call: once queued, the
 * control block is the program's again as soon as the transfer completes,
 * and another thread may reuse or free it (ROMIO frees it after
 * aio_return).
 *
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "io_decls.h"

#include "io_core.h"
#include "io_real.h"

#define POSIX DftLayerPosix

/* Referred to by io_core.c: a static link takes this object along. */
const char dftracer_aio_layer_[] DFT_HIDDEN = "aio";

#pragma GCC visibility push(default)

/* The body of a wrapper of NAME taking the control block CB: CALL is the
 * real call; the event carries the request's descriptor, size and offset
 * (the file is the descriptor's) and the result. */
#define AIO_CALL(RetType, NAME, CB, CALL)                                      \
  struct dftracer_io_call C;                                                   \
  RetType Ret;                                                                 \
  uint64_t Hash;                                                               \
  int Fd;                                                                      \
  size_t Count;                                                                \
  int64_t Offset;                                                              \
  if (DFT_LIKELY(!dftracer_io_on(POSIX)))                                      \
    return CALL;                                                               \
  Fd = (CB)->aio_fildes;                                                       \
  Count = (CB)->aio_nbytes;                                                    \
  Offset = (int64_t)(CB)->aio_offset;                                          \
  if (!(Hash = dftracer_fd_get(Fd)) ||                                         \
      !dftracer_io_begin(&C, POSIX, NAME, Hash))                               \
    return CALL;                                                               \
  Ret = CALL;                                                                  \
  DFT_IO_END(&C, DFT_ARG(fd, Fd), DFT_ARG(count, Count),                       \
             DFT_ARG(offset, Offset), DFT_ARG(ret, Ret));                      \
  return Ret

int aio_read(struct aiocb *aiocbp) {
  AIO_CALL(int, "aio_read", aiocbp, DFT_REAL(aio_read)(aiocbp));
}

int aio_read64(struct aiocb64 *aiocbp) {
  AIO_CALL(int, "aio_read64", aiocbp, DFT_REAL(aio_read64)(aiocbp));
}

int aio_write(struct aiocb *aiocbp) {
  AIO_CALL(int, "aio_write", aiocbp, DFT_REAL(aio_write)(aiocbp));
}

int aio_write64(struct aiocb64 *aiocbp) {
  AIO_CALL(int, "aio_write64", aiocbp, DFT_REAL(aio_write64)(aiocbp));
}

ssize_t aio_return(struct aiocb *aiocbp) {
  AIO_CALL(ssize_t, "aio_return", aiocbp, DFT_REAL(aio_return)(aiocbp));
}

ssize_t aio_return64(struct aiocb64 *aiocbp) {
  AIO_CALL(ssize_t, "aio_return64", aiocbp, DFT_REAL(aio_return64)(aiocbp));
}
