/*===- file_system.h - The file system a traced file lives on -------------===*
 *
 * Once per traced file, next to its FH line, an `FS` record
 * (docs/trace-format.md) names the file system type (statfs's magic, as
 * Linux names it: ext4, xfs, lustre, gpfs, nfs, tmpfs, ...; "unknown" with
 * the magic otherwise), the mount point (the deepest mount, in the mount
 * table read at load, that holds the path), the block size (statfs's
 * f_bsize) and, on Lustre, the file's stripe size and count (its
 * `lustre.lov` extended attribute: a layout of version 1 or 3).
 *
 * The facts are gathered at the first sight of the path, under the process
 * lock and busy (io_core.c): one statfs (of the parent directory when the
 * file does not exist yet: an open that creates it), one getxattr on Lustre.
 * Their text is kept (shared by the files of one mount; a copy per Lustre
 * file) from pages, never malloc's: a first sight may be in a signal
 * handler. A forked child's file repeats them after the FH lines.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_FILE_SYSTEM_H
#define DFTRACER_RUNTIME_FILE_SYSTEM_H

#include <stddef.h>
#include <stdint.h>

/* At load, tracing on: read the mount table, make the line buffers. May
 * allocate. */
void dftracer_fs_setup(void);

/* The args of the absolute path's FS record after its fhash (lasting
 * text), or NULL when statfs fails. Caller holds the process lock. Leaves
 * errno alone. */
const char *dftracer_fs_describe_locked(const char *Path, size_t Len);

/* The FS record line of Hash with args Body, in a buffer of this module
 * (Replay: the second one, for a forked child's replay inside a first
 * sight); *Len gets its length. NULL when there is no buffer. Caller holds
 * the process lock. */
const char *dftracer_fs_line_locked(uint64_t Hash, const char *Body,
                                    int Replay, size_t *Len);

#endif
