/*===- io_filter.h - Which files' I/O is traced ---------------------------===*
 *
 * A path is made absolute (against the current directory, or the directory
 * an *at call's dirfd names), its `.` components and repeated slashes are
 * dropped, and then:
 *  - never traced: /proc, /sys, /dev but for the tmpfs file systems
 *    mounted under it (/dev/shm), and trace files (names ending in .pfw or
 *    .pfw.gz, upstream's rule), whatever the data dirs say;
 *  - DFTRACER_DATA_DIR (or INIT's data_dirs when it is unset) is a list of
 *    directories separated by ':': only files under one of them are traced;
 *    `all` traces every file;
 *  - unset: every file but those under the system directories that Darshan
 *    excludes by default (/etc /usr /bin /sbin /lib /lib64 /boot /opt /var
 *    /run), so that shared libraries, locale and configuration files do not
 *    drown the application's own I/O.
 *
 * The decision is taken once per open (or per call of a path function) and
 * kept with the descriptor. A refused path (but a trace file) is counted
 * against its excluded directory (untraced.h).
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_IO_FILTER_H
#define DFTRACER_RUNTIME_IO_FILTER_H

#include <stddef.h>
#include <stdint.h>

enum { DftPathMax = 4096 };

/* At load, tracing on: find the tmpfs mounts under /dev. May allocate. */
void dftracer_io_filter_setup(void);

/* Use DataDirs ("" or NULL: the default) from now on. Made absolute against
 * the current directory. */
void dftracer_io_filter_set(const char *DataDirs);

/* Writes the absolute, cleaned form of Path (relative to DirFd, AT_FDCWD
 * for the current directory) to Out, DftPathMax bytes. Returns its length,
 * or 0 when it cannot be formed (too long, unknown dirfd). */
size_t dftracer_io_absolute_path(int DirFd, const char *Path, char *Out);

/* True when the absolute path Path (Len bytes) is to be traced; when not,
 * dftracer_untraced_pending_ names the directory it is counted in. */
int dftracer_io_filter_match(const char *Path, size_t Len);

/* Would a file at Path (relative to DirFd) be traced? For a call that
 * names its file only once it made it (mkstemp's template, tmpfile's
 * directory): the decision is the directory's. 0 when not, with *Slot
 * its untraced slot (0: not counted). Writes no FH line; errno kept. */
int dftracer_io_filter_path(int DirFd, const char *Path, int *Slot);

/* The file hash of an absolute path: 64-bit FNV-1a below 2^53, never 0. */
uint64_t dftracer_io_path_hash_of(const char *Path, size_t Len);

#endif
