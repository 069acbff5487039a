/*===- tune.h - Settings applied at run time (DFTRACER_TUNE) --------------===*
 *
 * DFTRACER_TUNE lists HDF5 properties and MPI-IO hints the runtime applies
 * in its wrappers, without a rebuild (docs/runtime.md, "Tuning without
 * rebuilding"): `KEY=VALUE` (override the application's value) or
 * `KEY?=VALUE` (only where the application kept the library's default),
 * separated by `;`, or `@PATH` naming a file of one setting a line (`#`
 * comments). `GLOB:KEY=VALUE` scopes a setting to the files whose absolute
 * path matches GLOB (fnmatch). The hints the MPI library reads from the
 * environment (ROMIO_HINTS, MPICH_MPIIO_HINTS, MPIIO_HINTS) are parsed the
 * way that library does, not applied (the library does that) but judged
 * the same way.
 *
 * Everything is parsed once at load (dftracer_tune_setup) into static
 * storage: the wrappers only read it. A malformed setting gets one stderr
 * line and a process-wide `tuning` record with status `invalid`, and is
 * left out; the program runs unchanged.
 *
 * The keys and the shape of their values are data (the table in tune.c);
 * tune_hdf5.c and tune_mpiio.c apply them, read back what is in effect and
 * write one `tuning` record (docs/trace-format.md) per file and setting.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_TUNE_H
#define DFTRACER_RUNTIME_TUNE_H

#include <stddef.h>
#include <stdint.h>

/* Where a key is set. */
enum dftracer_tune_list {
  DftTuneFapl, /* file access list, H5Fcreate and H5Fopen */
  DftTuneFcpl, /* file creation list, H5Fcreate only */
  DftTuneDcpl, /* dataset creation list, H5Dcreate */
  DftTuneDxpl, /* transfer list, every H5Dwrite/H5Dread */
  DftTuneMpiio /* MPI_Info of MPI_File_open (and of an mpio FAPL) */
};

/* The shape of a value. */
enum dftracer_tune_shape {
  DftShapeSize,  /* N: bytes (K, M, G suffixes: KiB, MiB, GiB) */
  DftShapeSize2, /* N,N */
  DftShapeBool,  /* 0|1 */
  DftShapeEnum,  /* one of Names */
  DftShapeEnum2, /* NAME,NAME */
  DftShapeCache, /* NSLOTS,NBYTES,W0 (W0 in 0..1) */
  DftShapeString /* an MPI-IO hint's value */
};

/* How HDF5 is asked (the signatures of the H5Pset/H5Pget pair). */
enum dftracer_tune_access {
  DftAccHsize,    /* (hid, hsize_t) / (hid, hsize_t *) */
  DftAccHsize2,   /* (hid, hsize_t, hsize_t) */
  DftAccSize,     /* (hid, size_t) */
  DftAccBool,     /* (hid, hbool_t) */
  DftAccInt,      /* (hid, enum) */
  DftAccInt2,     /* (hid, enum, enum) */
  DftAccPageBuf,  /* (hid, size_t, unsigned, unsigned) */
  DftAccCache,    /* (hid, int, size_t, size_t, double) */
  DftAccLocking,  /* (hid, hbool_t, hbool_t) */
  DftAccStrategy, /* (hid, strategy, hbool_t persist, hsize_t threshold) */
  DftAccSetOnly,  /* (hid, enum), and HDF5 has no getter */
  DftAccNone      /* not an HDF5 property (mpiio.*) */
};

struct dftracer_tune_key {
  const char *Name; /* "hdf5.alignment"; "mpiio." for every hint */
  unsigned char List, Shape, Access;
  const char *const *Names; /* an enum's names, by HDF5's value */
  unsigned NameCount;
  const char *Expect;    /* what a value must look like */
  const char *Set, *Get; /* HDF5's functions */
  /* The open file's list does not report it (H5Fget_access_plist of HDF5
   * 1.10 gives the default file locking): not read back. */
  unsigned char Unreported;
};

struct dftracer_tune_value {
  unsigned long long U[3];
  double W;
};

/* Where a setting came from. */
enum dftracer_tune_source {
  DftSrcTune,
  DftSrcRomioHints,
  DftSrcMpichHints,
  DftSrcMpiioHints
};

enum { DftTuneTextMax = 256, DftTuneValueMax = 256, DftTuneHintMax = 128 };
/* At most this many settings: a file's dataset and transfer settings are
 * a 64-bit mask. */
enum { DftTuneMaxSettings = 64 };

struct dftracer_tune_setting {
  const struct dftracer_tune_key *Key;
  char Text[DftTuneTextMax]; /* as written */
  char Glob[DftTuneTextMax]; /* "" : every file */
  char Name[DftTuneHintMax]; /* the key as written: "mpiio.cb_nodes" */
  char Hint[DftTuneHintMax]; /* mpiio.*: the hint's name */
  char Requested[DftTuneValueMax];
  struct dftracer_tune_value Value;
  unsigned char Default; /* `?=` */
  unsigned char Source;  /* dftracer_tune_source */
  const char *Invalid;   /* an environment hint's mistake */
};

/* The settings parsed (read-only after dftracer_tune_setup). */
extern struct dftracer_tune_setting dftracer_tune_settings_[];
extern unsigned dftracer_tune_count_;
/* Bit per list (1 << dftracer_tune_list) that some setting uses: a wrapper
 * tests its bit before any other work; DftTuneHasInvalid: a malformed
 * setting's record waits for the first open. */
enum { DftTuneHasInvalid = 1u << 8 };
extern unsigned dftracer_tune_lists_;

/* At load, tracing on: parse DFTRACER_TUNE and the MPI-IO environment. */
void dftracer_tune_setup(void);

/* Whether setting S applies to the file at absolute path Abs (and as
 * given, Given, for the MPI-IO environment's patterns). */
int dftracer_tune_matches(const struct dftracer_tune_setting *S,
                          const char *Abs, const char *Given);

/* Canonical text of value V of key K into Out (Size bytes). */
void dftracer_tune_format(const struct dftracer_tune_key *K,
                          const struct dftracer_tune_value *V, char *Out,
                          size_t Size);
/* Whether A and B are the same value of K. */
int dftracer_tune_equal(const struct dftracer_tune_key *K,
                        const struct dftracer_tune_value *A,
                        const struct dftracer_tune_value *B);

/* The statuses of a `tuning` record. */
enum dftracer_tune_status {
  DftTuneApplied,
  DftTuneAlready,
  DftTuneKept,
  DftTuneIgnored,
  DftTuneInvalid
};

/* Write S's `tuning` record for file Fhash (0: process-wide) after the
 * call's event; an ignored or invalid setting also gets its stderr line
 * (once per key and process). Busy. */
void dftracer_tune_record(uint64_t Fhash, const struct dftracer_tune_setting *S,
                          const char *Before, const char *Effect,
                          enum dftracer_tune_status Status, const char *Reason);

/* The process-wide records of malformed settings, written once, at the
 * first file a wrapper tunes (the trace's thread buffers exist then). */
void dftracer_tune_flush_invalid(void);

#endif
