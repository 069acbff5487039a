/* Feeds the same generated stream (span records as the traced threads
 * write them, event_record.h, between metadata lines) to two builds of the
 * encoder (compact_encoder.c with its json_writer.c and event_format.c,
 * each a shared object) and compares their outputs byte for byte: the .pfw
 * lines (dftracer_compact_start_lines), the compact blocks, and both at
 * once. Records: I/O args of a few repeating shapes (an fhash, fd, count,
 * offset, ret, a string), random ones, keys enough to use up the 64 key
 * slots (odd seeds), text args, INT64_MIN and negative values, other
 * threads. encoder_same.sh builds and runs it.
 *
 *   encoder_same OLD.so NEW.so SEED PIECE_BYTES   (exit 1 when they differ) */
#define _GNU_SOURCE
#include "compact_writer.h"
#include "event_record.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

struct out { char *B; size_t N, Cap; };
static void put(void *Arg, struct iovec *Iov, int Count) {
  struct out *O = Arg;
  for (int I = 0; I < Count; ++I) {
    if (O->N + Iov[I].iov_len > O->Cap) { O->Cap = 2 * (O->N + Iov[I].iov_len); O->B = realloc(O->B, O->Cap); }
    memcpy(O->B + O->N, Iov[I].iov_base, Iov[I].iov_len); O->N += Iov[I].iov_len;
  }
}
typedef struct dftracer_compact *(*startw_t)(const struct dftracer_compact_zstd *, dftracer_compact_out, void *);
typedef struct dftracer_compact *(*startl_t)(dftracer_compact_out, void *);
typedef void (*feed_t)(struct dftracer_compact *, const char *, size_t);
typedef int (*take_t)(struct dftracer_compact *, dftracer_compact_out, void *);
typedef void (*fin_t)(struct dftracer_compact *);

static const char *Names[] = {"\"name\":\"write\",\"cat\":\"POSIX\",", "\"name\":\"pwrite64\",\"cat\":\"POSIX\",",
  "\"name\":\"fn\",\"cat\":\"C_APP\",", "\"name\":\"a_rather_long_function_name_of_an_app\",\"cat\":\"CPP_APP\","};
static const char *Strs[] = {"r", "w+", "O_RDONLY|O_CREAT"};
static const char *Keys[] = {"\"fd\":", "\"count\":", "\"offset\":", "\"ret\":", "\"mode\":", "\"x\":"};

static char ManyKeys[90][16];
static size_t gen(char *Buf, size_t Cap, unsigned Seed) {
  srand(Seed);
  for (int I = 0; I < 90; ++I) sprintf(ManyKeys[I], "\"k%d\":", I);
  size_t N = 0;
  uint64_t Id = 1, Ts = 1796496800087089ull;
  int64_t Off = 0;
  while (N + 4096 < Cap) {
    int K = rand() % 100;
    if (K < 3) { /* a text line */
      N += (size_t)sprintf(Buf + N, "{\"id\":%llu,\"name\":\"FH\",\"cat\":\"dftracer\",\"pid\":5,\"tid\":5,\"ph\":\"M\",\"args\":{\"name\":\"/tmp/f%d\",\"value\":%d}}\n", (unsigned long long)Id++, rand() % 9, rand());
      continue;
    }
    struct dftracer_span_record R = {0};
    const char *NC = Names[rand() % 4];
    char Args[256]; size_t AL = 0;
    struct dftracer_io_arg Io[DftIoArgsMax];
    int NIo = 0;
    uint64_t Fhash = 0;
    if (rand() % 4 == 0) AL = (size_t)sprintf(Args, ",\"level2\":%d,\"s\":\"v%d\"", rand() % 300000, rand() % 3);
    if (rand() % 5 != 0) {
      Fhash = rand() % 3 ? 6164161801510825ull : (uint64_t)rand() * 77777;
      int Fixed = rand() % 10 < 7;
      static const int FixedKeys[] = {0, 1, 2, 3, 4};
      int M = Fixed ? 4 + (rand() % 8 == 0) : 1 + rand() % 6;
      for (int I = 0; I < M; ++I) {
        int Kk = Fixed ? FixedKeys[I] : rand() % 6;
        Io[NIo].Key = Keys[Kk]; Io[NIo].KeyLen = strlen(Keys[Kk]);
        if (!Fixed && Kk == 5 && (Seed & 1)) { int M2 = rand() % 90; Io[NIo].Key = ManyKeys[M2]; Io[NIo].KeyLen = strlen(ManyKeys[M2]); }
        if (Kk == 4) { Io[NIo].KeyLen |= DftIoArgString; Io[NIo].Value = (int64_t)(intptr_t)Strs[Fixed && rand() % 8 ? 0 : rand() % 3]; }
        else if (Kk == 2) { Off += rand() % 5000; Io[NIo].Value = Off; }
        else { int r = rand() % 20; Io[NIo].Value = r == 0 ? INT64_MIN : r == 1 ? -(int64_t)rand() : r == 2 ? (int64_t)rand() * rand() : rand() % 12; }
        ++NIo;
      }
    }
    struct dftracer_record_io_args IA = {Fhash, Io, NIo};
    R.Marker = DftRecordMarker;
    R.Pid = rand() % 50 ? 4242 : -7; R.Tid = R.Pid + rand() % 3;
    R.Level = 1 + rand() % 3;
    R.NameCatLen = (uint32_t)strlen(NC); R.ArgsLen = (uint32_t)AL;
    R.NIoArgs = dftracer_record_io_count(&IA);
    R.Id = Id++; R.ParentId = rand() % 3 ? 0 : Id - 1 - rand() % 20000;
    Ts += rand() % 3000; R.Ts = Ts; R.Dur = rand() % 7 ? rand() % 50 : (uint64_t)rand() * 1000;
    R.Name = NC; R.Cat = NC + 8;
    R.Len = (uint32_t)(sizeof(R) + R.NameCatLen + AL + R.NIoArgs * sizeof(struct dftracer_io_arg));
    char *E = dftracer_put_span_record(Buf + N, &R, NC, Args);
    E = dftracer_put_record_io_args(E, &IA);
    N = (size_t)(E - Buf);
  }
  return N;
}

static void run(const char *Lib, const char *Data, size_t Len, size_t Piece, struct out *Pfw, struct out *Pfc, struct out *Both, struct out *BothPfc) {
  void *H = dlopen(Lib, RTLD_NOW | RTLD_LOCAL);
  if (!H) { fprintf(stderr, "%s\n", dlerror()); exit(2); }
  startw_t SW = (startw_t)dlsym(H, "dftracer_compact_start_with");
  startl_t SL = (startl_t)dlsym(H, "dftracer_compact_start_lines");
  feed_t F = (feed_t)dlsym(H, "dftracer_compact_feed");
  take_t T = (take_t)dlsym(H, "dftracer_compact_take_records");
  fin_t Fin = (fin_t)dlsym(H, "dftracer_compact_finish");
  struct dftracer_compact_zstd Z = {ZSTD_estimateCCtxSize, (void *(*)(void *, size_t))ZSTD_initStaticCCtx,
    (size_t (*)(void *, void *, size_t, const void *, size_t, int))ZSTD_compressCCtx, ZSTD_compressBound, ZSTD_isError, 1};
  struct dftracer_compact *L = SL(put, Pfw), *C = SW(&Z, put, Pfc), *B = SW(&Z, put, BothPfc);
  T(C, NULL, NULL); T(B, put, Both);
  for (size_t At = 0; At < Len; At += Piece) {
    size_t N = Len - At < Piece ? Len - At : Piece;
    F(L, Data + At, N); F(C, Data + At, N); F(B, Data + At, N);
  }
  Fin(L); Fin(C); Fin(B);
}

static int same(const char *What, struct out *A, struct out *B) {
  if (A->N == B->N && memcmp(A->B, B->B, A->N) == 0) { printf("%s: identical, %zu bytes\n", What, A->N); return 1; }
  size_t I = 0; while (I < A->N && I < B->N && A->B[I] == B->B[I]) ++I;
  printf("%s: DIFFER (%zu vs %zu bytes) at %zu\n", What, A->N, B->N, I);
  fwrite(A->B + (I > 200 ? I - 200 : 0), 1, 400, stdout); printf("\n----\n"); fwrite(B->B + (I > 200 ? I - 200 : 0), 1, 400, stdout); printf("\n");
  return 0;
}

int main(int argc, char **argv) {
  size_t Cap = 64 << 20;
  char *Data = malloc(Cap);
  size_t Len = gen(Data, Cap, (unsigned)atoi(argv[3]));
  size_t Piece = (size_t)atoi(argv[4]);
  struct out O[4] = {{0}}, N[4] = {{0}};
  run(argv[1], Data, Len, Piece, &O[0], &O[1], &O[2], &O[3]);
  run(argv[2], Data, Len, Piece, &N[0], &N[1], &N[2], &N[3]);
  int ok = same("pfw", &O[0], &N[0]) & same("pfc", &O[1], &N[1]) & same("both.pfw", &O[2], &N[2]) & same("both.pfc", &O[3], &N[3]);
  ok &= same("pfw vs both.pfw", &N[0], &N[2]);
  return ok ? 0 : 1;
}
