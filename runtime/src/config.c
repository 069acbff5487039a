#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

int dftracer_env_flag(const char *Value) {
  if (!Value)
    return 0;
  return strcmp(Value, "1") == 0 || strcasecmp(Value, "true") == 0 ||
         strcasecmp(Value, "yes") == 0 || strcasecmp(Value, "on") == 0;
}

void dftracer_config_from_env(struct dftracer_config *Config) {
  const char *Prefix = getenv("DFTRACER_LOG_FILE");
  memset(Config, 0, sizeof(*Config));
  Config->Enable = dftracer_env_flag(getenv("DFTRACER_ENABLE"));
  Config->Compression = dftracer_env_flag(getenv("DFTRACER_TRACE_COMPRESSION"));
  Config->IncMetadata = dftracer_env_flag(getenv("DFTRACER_INC_METADATA"));
  if (Prefix && *Prefix) {
    strncpy(Config->LogPrefix, Prefix, sizeof(Config->LogPrefix) - 1);
  }
}
