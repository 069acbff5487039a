#define _GNU_SOURCE
#include "coverage.h"

#include "internal.h"
#include "json_writer.h"
#include "records.h"
#include "sink.h"
#include "writer.h"

#include <dftracer/dftracer.h>

#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

/* The bounds of the record (docs/runtime.md, "Coverage"): registrations
 * (an annotated program and annotated shared libraries it loads), sources
 * listed per record, the body's bytes, and the decoded bytes kept of a
 * program name, a file name, a status and a reason (longer ones are cut). */
enum {
  CoverageMax = 4,
  ListMax = 256,
  BodyMax = 128 * 1024,
  ProgramMax = 256,
  FileMax = 1024,
  StatusMax = 32,
  ReasonMax = 512,
  DepthMax = 32,
  /* One listed source, escaped (at most 6 bytes a byte), with its keys. */
  EntryMax = 6 * (FileMax + StatusMax + ReasonMax) + 64,
};

/* A registration: its text (the program's static JSON) and its record, the
 * head formatted in front of Body at each write, as CONFIG's. */
struct coverage {
  const char *Json;
  size_t BodyLen;
  char Line[DftRecordFixedBytes + BodyMax];
};
static struct coverage Coverages[CoverageMax];
static int Count; /* published: under the process lock */

/* Registrations parse one at a time into the static scratch below. */
static pthread_mutex_t RegisterLock = PTHREAD_MUTEX_INITIALIZER;

/* --- A JSON reader for one object, without allocation -------------------- */

struct reader {
  const char *P;
  const char *Start; /* for the error's offset */
  int Bad;
};

static void skipBlank(struct reader *R) {
  while (*R->P == ' ' || *R->P == '\t' || *R->P == '\n' || *R->P == '\r')
    ++R->P;
}

static int fail(struct reader *R) {
  R->Bad = 1;
  return 0;
}

static int hexDigit(char C) {
  if (C >= '0' && C <= '9')
    return C - '0';
  if (C >= 'a' && C <= 'f')
    return C - 'a' + 10;
  if (C >= 'A' && C <= 'F')
    return C - 'A' + 10;
  return -1;
}

static int hex4(const char *P, unsigned *V) {
  int I;
  *V = 0;
  for (I = 0; I < 4; ++I) {
    int D = hexDigit(P[I]);
    if (D < 0)
      return 0;
    *V = *V * 16 + (unsigned)D;
  }
  return 1;
}

/* Appends code point C as UTF-8 to Out[*Len], while it fits Cap - 1. */
static void putCodePoint(char *Out, size_t Cap, size_t *Len, unsigned C) {
  char B[4];
  size_t N, I;
  if (C < 0x80) {
    B[0] = (char)C;
    N = 1;
  } else if (C < 0x800) {
    B[0] = (char)(0xC0 | (C >> 6));
    B[1] = (char)(0x80 | (C & 0x3F));
    N = 2;
  } else if (C < 0x10000) {
    B[0] = (char)(0xE0 | (C >> 12));
    B[1] = (char)(0x80 | ((C >> 6) & 0x3F));
    B[2] = (char)(0x80 | (C & 0x3F));
    N = 3;
  } else {
    B[0] = (char)(0xF0 | (C >> 18));
    B[1] = (char)(0x80 | ((C >> 12) & 0x3F));
    B[2] = (char)(0x80 | ((C >> 6) & 0x3F));
    B[3] = (char)(0x80 | (C & 0x3F));
    N = 4;
  }
  if (!Out || *Len + N >= Cap)
    return; /* cut: whole characters only */
  for (I = 0; I < N; ++I)
    Out[(*Len)++] = B[I];
}

/* A string at R->P, decoded into Out (NULL: skipped), cut to Cap - 1 bytes
 * and terminated; *Len its length. */
static int readString(struct reader *R, char *Out, size_t Cap, size_t *Len) {
  const char *P = R->P;
  size_t N = 0;
  if (*P != '"')
    return fail(R);
  for (++P;;) {
    unsigned char C = (unsigned char)*P;
    if (C == '"')
      break;
    if (C < 0x20)
      return fail(R); /* the end of the text, or a raw control character */
    if (C != '\\') {
      if (Out && N + 1 < Cap)
        Out[N++] = (char)C;
      ++P;
      continue;
    }
    ++P;
    switch (*P) {
    case '"':
    case '\\':
    case '/':
      putCodePoint(Out, Cap, &N, (unsigned char)*P);
      ++P;
      break;
    case 'b':
      putCodePoint(Out, Cap, &N, '\b');
      ++P;
      break;
    case 'f':
      putCodePoint(Out, Cap, &N, '\f');
      ++P;
      break;
    case 'n':
      putCodePoint(Out, Cap, &N, '\n');
      ++P;
      break;
    case 'r':
      putCodePoint(Out, Cap, &N, '\r');
      ++P;
      break;
    case 't':
      putCodePoint(Out, Cap, &N, '\t');
      ++P;
      break;
    case 'u': {
      unsigned V, Low;
      if (!hex4(P + 1, &V))
        return fail(R);
      P += 5;
      if (V >= 0xD800 && V < 0xDC00 && P[0] == '\\' && P[1] == 'u' &&
          hex4(P + 2, &Low) && Low >= 0xDC00 && Low < 0xE000) {
        V = 0x10000 + ((V - 0xD800) << 10) + (Low - 0xDC00);
        P += 6;
      } else if (V >= 0xD800 && V < 0xE000) {
        V = 0xFFFD; /* a lone surrogate */
      }
      putCodePoint(Out, Cap, &N, V);
      break;
    }
    default:
      return fail(R);
    }
  }
  if (Out)
    Out[N] = '\0';
  if (Len)
    *Len = N;
  R->P = P + 1;
  return 1;
}

static int skipValue(struct reader *R, int Depth);

/* An object or an array, its members skipped. */
static int skipComposite(struct reader *R, int Depth, char Close) {
  int First = 1;
  if (Depth > DepthMax)
    return fail(R);
  ++R->P;
  for (;;) {
    skipBlank(R);
    if (*R->P == Close && First) {
      ++R->P;
      return 1;
    }
    if (Close == '}') {
      if (!readString(R, NULL, 0, NULL))
        return 0;
      skipBlank(R);
      if (*R->P++ != ':')
        return fail(R);
    }
    if (!skipValue(R, Depth + 1))
      return 0;
    skipBlank(R);
    if (*R->P == ',') {
      ++R->P;
      First = 0;
      continue;
    }
    if (*R->P == Close) {
      ++R->P;
      return 1;
    }
    return fail(R);
  }
}

static int skipValue(struct reader *R, int Depth) {
  skipBlank(R);
  switch (*R->P) {
  case '"':
    return readString(R, NULL, 0, NULL);
  case '{':
    return skipComposite(R, Depth, '}');
  case '[':
    return skipComposite(R, Depth, ']');
  case 't':
    if (strncmp(R->P, "true", 4) == 0)
      return R->P += 4, 1;
    return fail(R);
  case 'f':
    if (strncmp(R->P, "false", 5) == 0)
      return R->P += 5, 1;
    return fail(R);
  case 'n':
    if (strncmp(R->P, "null", 4) == 0)
      return R->P += 4, 1;
    return fail(R);
  default: {
    const char *S = R->P;
    int Digits = 0;
    if (*R->P == '-')
      ++R->P;
    for (; *R->P; ++R->P) {
      char C = *R->P;
      if (C >= '0' && C <= '9')
        ++Digits;
      else if (C != '.' && C != 'e' && C != 'E' && C != '+' && C != '-')
        break;
    }
    if (!Digits || R->P == S)
      return fail(R);
    return 1;
  }
  }
}

/* Reads `"key":` into Key; 0 at a syntax error. */
static int readKey(struct reader *R, char *Key, size_t Cap) {
  skipBlank(R);
  if (!readString(R, Key, Cap, NULL))
    return 0;
  skipBlank(R);
  if (*R->P++ != ':')
    return fail(R);
  skipBlank(R);
  return 1;
}

/* Iterates the members of the object or array at R->P: *First 1 before the
 * first. Returns 1 while there is a member to read, 0 at the end or an
 * error (R->Bad). */
static int nextMember(struct reader *R, char Close, int *First) {
  skipBlank(R);
  if (*First) {
    *First = 0;
    ++R->P; /* the opening bracket */
    skipBlank(R);
    if (*R->P == Close) {
      ++R->P;
      return 0;
    }
    return 1;
  }
  if (*R->P == ',') {
    ++R->P;
    return 1;
  }
  if (*R->P == Close) {
    ++R->P;
    return 0;
  }
  return fail(R);
}

/* --- The record -------------------------------------------------------- */

/* Scratch of one registration (RegisterLock). */
static char Program[ProgramMax], File[FileMax], Status[StatusMax],
    Reason[ReasonMax], Key[64];
static char List[BodyMax];
static char Entry[EntryMax];

struct tally {
  unsigned long long Sources, Annotated, Failed, Excluded;
  size_t ListLen;
  unsigned Listed;
  int Truncated;
};

/* One element of "files": counted, and listed when not annotated. */
static int readFile(struct reader *R, struct tally *T) {
  int First = 1;
  char *Out;
  File[0] = Status[0] = Reason[0] = '\0';
  if (*R->P != '{')
    return fail(R);
  while (nextMember(R, '}', &First)) {
    if (!readKey(R, Key, sizeof(Key)))
      return 0;
    if (strcmp(Key, "file") == 0) {
      if (!readString(R, File, sizeof(File), NULL))
        return 0;
    } else if (strcmp(Key, "status") == 0) {
      if (!readString(R, Status, sizeof(Status), NULL))
        return 0;
    } else if (strcmp(Key, "reason") == 0) {
      if (!readString(R, Reason, sizeof(Reason), NULL))
        return 0;
    } else if (!skipValue(R, 3)) {
      return 0;
    }
  }
  if (R->Bad)
    return 0;
  ++T->Sources;
  if (strcmp(Status, "annotated") == 0) {
    ++T->Annotated;
    return 1;
  }
  /* failed; anything else (excluded, not_annotated, ...) is left out by a
   * filter or a choice: excluded. */
  if (strcmp(Status, "failed") == 0) {
    ++T->Failed;
  } else {
    ++T->Excluded;
    if (!Reason[0] && Status[0] && strcmp(Status, "excluded") != 0)
      memcpy(Reason, Status, strlen(Status) + 1);
    memcpy(Status, "excluded", sizeof("excluded"));
  }
  if (T->Truncated)
    return 1;
  Out = Entry;
  if (T->Listed)
    *Out++ = ',';
  Out = DFTRACER_PUT_LIT(Out, "{\"file\":");
  Out = dftracer_put_string(Out, File, strlen(File));
  Out = DFTRACER_PUT_LIT(Out, ",\"status\":");
  Out = dftracer_put_string(Out, Status, strlen(Status));
  Out = DFTRACER_PUT_LIT(Out, ",\"reason\":");
  Out = dftracer_put_string(Out, Reason, strlen(Reason));
  *Out++ = '}';
  if (T->Listed == ListMax ||
      T->ListLen + (size_t)(Out - Entry) > BodyMax / 2) {
    T->Truncated = 1;
    return 1;
  }
  memcpy(List + T->ListLen, Entry, (size_t)(Out - Entry));
  T->ListLen += (size_t)(Out - Entry);
  ++T->Listed;
  return 1;
}

/* Parses Json into C's body; 0 when it is not a coverage object. */
static int parse(const char *Json, struct coverage *C, size_t *Where) {
  struct reader R = {Json, Json, 0};
  struct tally T = {0, 0, 0, 0, 0, 0, 0};
  int First = 1, HaveFiles = 0;
  char *Out;
  Program[0] = '\0';
  skipBlank(&R);
  if (*R.P != '{')
    fail(&R);
  while (!R.Bad && nextMember(&R, '}', &First)) {
    if (!readKey(&R, Key, sizeof(Key)))
      break;
    if (strcmp(Key, "program") == 0) {
      readString(&R, Program, sizeof(Program), NULL);
    } else if (strcmp(Key, "files") == 0 && *R.P == '[') {
      int FirstFile = 1;
      HaveFiles = 1;
      while (!R.Bad && nextMember(&R, ']', &FirstFile))
        if (!readFile(&R, &T))
          break;
    } else {
      skipValue(&R, 1);
    }
  }
  skipBlank(&R);
  if (!R.Bad && *R.P != '\0')
    fail(&R); /* something after the object */
  if (R.Bad || !HaveFiles) {
    *Where = (size_t)(R.P - R.Start);
    return 0;
  }
  Out = C->Line + DftRecordFixedBytes;
  Out = dftracer_record_str(Out, "program", Program, 1);
  Out = dftracer_record_u64(Out, "sources", T.Sources, 0);
  Out = dftracer_record_u64(Out, "annotated", T.Annotated, 0);
  Out = dftracer_record_u64(Out, "failed", T.Failed, 0);
  Out = dftracer_record_u64(Out, "excluded", T.Excluded, 0);
  Out = DFTRACER_PUT_LIT(Out, ",\"files\":[");
  Out = dftracer_put_raw(Out, List, T.ListLen);
  *Out++ = ']';
  if (T.Truncated)
    Out = DFTRACER_PUT_LIT(Out, ",\"truncated\":true");
  Out = dftracer_record_tail(Out);
  C->BodyLen = (size_t)(Out - (C->Line + DftRecordFixedBytes));
  return 1;
}

/* Writes C's record: to the sink (the top of a file), or to the writer. */
static void writeLocked(struct coverage *C, int ToSink) {
  char Head[DftRecordFixedBytes];
  size_t HeadLen = (size_t)(dftracer_record_head(Head, "coverage") - Head);
  char *Start = C->Line + DftRecordFixedBytes - HeadLen;
  memcpy(Start, Head, HeadLen);
  if (ToSink)
    dftracer_sink_write(&dftracer_process_.Sink, Start, HeadLen + C->BodyLen);
  else
    dftracer_writer_output_locked(Start, HeadLen + C->BodyLen);
}

void dftracer_coverage_report_locked(void) {
  int I;
  for (I = 0; I < Count; ++I)
    writeLocked(&Coverages[I], 1);
}

static void sayBad(size_t Where) {
  char Num[DFTRACER_JSON_INT_BOUND + 1];
  char *End = dftracer_put_u64(Num, (uint64_t)Where);
  static const char Before[] =
      "dftracer: the program's coverage text is not valid JSON (at byte ";
  static const char After[] = "); no coverage record written\n";
  struct iovec Iov[3] = {{(void *)Before, sizeof(Before) - 1},
                         {Num, (size_t)(End - Num)},
                         {(void *)After, sizeof(After) - 1}};
  (void)syscall(SYS_writev, STDERR_FILENO, Iov, 3);
}

DFTRACER_API void dftracer_register_coverage(const char *Json) {
  struct dftracer_process *P = &dftracer_process_;
  struct coverage *C;
  size_t Where = 0;
  int I, Ok;
  if (!Json)
    return;
  pthread_mutex_lock(&RegisterLock);
  /* Count only grows, under both locks: read here under RegisterLock. */
  for (I = 0; I < Count; ++I)
    if (Coverages[I].Json == Json)
      break;
  if (I < Count || Count == CoverageMax) {
    pthread_mutex_unlock(&RegisterLock);
    return; /* registered already, or no room left */
  }
  C = &Coverages[Count];
  Ok = parse(Json, C, &Where);
  if (Ok) {
    C->Json = Json;
    pthread_mutex_lock(&P->Lock);
    ++Count;
    /* A file open already has its top written: the record goes after what
     * is there. A file opened later starts with it. */
    if (dftracer_sink_is_open(&P->Sink) && !P->Finished)
      writeLocked(C, 0);
    pthread_mutex_unlock(&P->Lock);
  }
  pthread_mutex_unlock(&RegisterLock);
  if (!Ok && P->Config.Enable)
    sayBad(Where);
}
