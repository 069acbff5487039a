#include "config.h"

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

void dftracer_config_from_env(struct dftracer_config *Config) {
  const char *Prefix = getenv("DFTRACER_LOG_FILE");
  const char *DataDir = getenv("DFTRACER_DATA_DIR");
  const char *Clock;
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
}
