#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

int dftracer_env_flag(const char *Value) {
  if (!Value)
    return 0;
  return strcmp(Value, "1") == 0 || strcasecmp(Value, "true") == 0 ||
         strcasecmp(Value, "yes") == 0 || strcasecmp(Value, "on") == 0;
}

void dftracer_config_set_prefix(struct dftracer_config *Config,
                                const char *Prefix) {
  char Cwd[4096];
  const char *Dir = "";
  const char *Sep = "";
  size_t Len = strlen(Prefix);
  int IsDir = Len > 0 && Prefix[Len - 1] == '/';
  int N;
  if (Prefix[0] != '/' && getcwd(Cwd, sizeof(Cwd))) {
    Dir = Cwd;
    Sep = "/";
    while (Prefix[0] == '.' && Prefix[1] == '/')
      Prefix += 2;
  }
  N = snprintf(Config->LogPrefix, sizeof(Config->LogPrefix), "%s%s%s%s", Dir,
               Sep, Prefix, IsDir ? "trace" : "");
  if (N < 0 || (size_t)N >= sizeof(Config->LogPrefix))
    Config->LogPrefix[0] = '\0'; /* too long: fall back to ./trace */
}

/* A count or a size from the environment: decimal digits, for sizes with
 * one K, M or G (powers of 1024). Anything else keeps *Value and says so
 * once on stderr, naming the variable: a typo must not silently mean
 * "unlimited" or "never". Returns 1 when the variable was set and valid. */
static int readNumber(const char *Var, int Suffix, unsigned long long *Value) {
  const char *Text = getenv(Var);
  char *End;
  unsigned long long N, Scale = 1;
  int Saved = errno, Bad;
  if (!Text || !*Text)
    return 0;
  errno = 0;
  N = strtoull(Text, &End, 10);
  if (Suffix && End != Text && *End && !End[1]) {
    switch (*End) {
    case 'k': case 'K': Scale = 1ull << 10; ++End; break;
    case 'm': case 'M': Scale = 1ull << 20; ++End; break;
    case 'g': case 'G': Scale = 1ull << 30; ++End; break;
    default: break;
    }
  }
  Bad = End == Text || *End || errno || Text[0] == '-' ||
        (Scale > 1 && N > ~0ull / Scale);
  errno = Saved;
  if (Bad) {
    if (Suffix)
      fprintf(stderr,
              "dftracer: %s='%s' is not a size (bytes, or a number with K, "
              "M or G); using the default\n",
              Var, Text);
    else
      fprintf(stderr,
              "dftracer: %s='%s' is not a whole number; using %llu\n", Var,
              Text, *Value);
    return 0;
  }
  *Value = N * Scale;
  return 1;
}

void dftracer_config_from_env(struct dftracer_config *Config) {
  const char *Prefix = getenv("DFTRACER_LOG_FILE");
  const char *DataDir = getenv("DFTRACER_DATA_DIR");
  const char *Clock, *Throttle, *Time;
  memset(Config, 0, sizeof(*Config));
  Config->Enable = dftracer_env_flag(getenv("DFTRACER_ENABLE"));
  Config->Compression = dftracer_env_flag(getenv("DFTRACER_TRACE_COMPRESSION"));
  Config->IncMetadata = dftracer_env_flag(getenv("DFTRACER_INC_METADATA"));
  Clock = getenv("DFTRACER_CLOCK");
  Config->MonotonicClock = Clock && strcmp(Clock, "monotonic") == 0;
  if (Config->Enable && Prefix && *Prefix)
    dftracer_config_set_prefix(Config, Prefix);
  Config->IoLayers = DftLayerAll;
  if (dftracer_env_flag(getenv("DFTRACER_DISABLE_IO")))
    Config->IoLayers = 0;
  if (dftracer_env_flag(getenv("DFTRACER_DISABLE_POSIX")))
    Config->IoLayers &= ~(unsigned)DftLayerPosix;
  if (dftracer_env_flag(getenv("DFTRACER_DISABLE_STDIO")))
    Config->IoLayers &= ~(unsigned)DftLayerStdio;
  if (dftracer_env_flag(getenv("DFTRACER_DISABLE_MPIIO")))
    Config->IoLayers &= ~(unsigned)DftLayerMpiio;
  if (dftracer_env_flag(getenv("DFTRACER_DISABLE_HDF5")))
    Config->IoLayers &= ~(unsigned)DftLayerHdf5;
  if (DataDir && strlen(DataDir) < sizeof(Config->DataDir))
    strcpy(Config->DataDir, DataDir);
  if (!Config->Enable)
    return;
  Config->ThrottleCalls = DftThrottleCallsDefault;
  Config->ThrottleUs = DftThrottleUsDefault;
  Config->ThrottleMaxSpans = DftThrottleMaxSpansDefault;
  Throttle = getenv("DFTRACER_THROTTLE");
  readNumber("DFTRACER_THROTTLE_CALLS", 0, &Config->ThrottleCalls);
  readNumber("DFTRACER_THROTTLE_US", 0, &Config->ThrottleUs);
  readNumber("DFTRACER_THROTTLE_MAX_SPANS", 0, &Config->ThrottleMaxSpans);
  if (Throttle && *Throttle && !dftracer_env_flag(Throttle))
    Config->ThrottleCalls = 0; /* DFTRACER_THROTTLE=0 (or off, no, ...) */
  Config->ThrottleTime = DftThrottleTimeDefault;
  Time = getenv("DFTRACER_THROTTLE_TIME");
  if (Time && strcmp(Time, "exact") == 0)
    Config->ThrottleTime = DftThrottleTimeExact;
  else if (Time && strcmp(Time, "sampled") == 0)
    Config->ThrottleTime = DftThrottleTimeSampled;
  else if (Time && *Time)
    fprintf(stderr,
            "dftracer: DFTRACER_THROTTLE_TIME='%s' is neither exact nor "
            "sampled; using %s\n",
            Time, DftThrottleTimeDefault == DftThrottleTimeExact ? "exact"
                                                                 : "sampled");
  Config->ThrottleSample = DftThrottleSampleDefault;
  readNumber("DFTRACER_THROTTLE_SAMPLE", 0, &Config->ThrottleSample);
  if (Config->ThrottleSample == 0 || Config->ThrottleSample > (1u << 30)) {
    fprintf(stderr,
            "dftracer: DFTRACER_THROTTLE_SAMPLE=%llu is not between 1 and "
            "2^30; using %d\n",
            Config->ThrottleSample, (int)DftThrottleSampleDefault);
    Config->ThrottleSample = DftThrottleSampleDefault;
  }
  Config->MaxTraceSizeSet =
      readNumber("DFTRACER_MAX_TRACE_SIZE", 1, &Config->MaxTraceSize);
  Config->FlushIntervalMs = DftFlushIntervalMsDefault;
  readNumber("DFTRACER_FLUSH_INTERVAL_MS", 0, &Config->FlushIntervalMs);
  Config->MemAlignment = DftMemAlignmentDefault;
  if (readNumber("DFTRACER_MEM_ALIGNMENT", 0, &Config->MemAlignment) &&
      (Config->MemAlignment == 0 || Config->MemAlignment > DftMemAlignmentMax ||
       (Config->MemAlignment & (Config->MemAlignment - 1)))) {
    fprintf(stderr,
            "dftracer: DFTRACER_MEM_ALIGNMENT=%llu is not a power of two up "
            "to 2^30; using %d\n",
            Config->MemAlignment, (int)DftMemAlignmentDefault);
    Config->MemAlignment = DftMemAlignmentDefault;
  }
}
