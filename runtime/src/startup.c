#include "startup.h"

#include "io_filter.h"
#include "launcher.h"
#include "tune.h"
#include "layer_check.h"
#include "signals.h"
#include "untraced.h"

void dftracer_startup_checks_(struct dftracer_config *Config) {
  if (!Config->Enable)
    return;
  if (dftracer_is_launcher()) {
    Config->Enable = 0;
    return;
  }
  dftracer_io_filter_setup();
  dftracer_untraced_setup();
  dftracer_layer_check(Config->IoLayers);
  dftracer_tune_setup(); /* DFTRACER_TUNE and the MPI-IO environment */
  dftracer_signals_setup(); /* a SIGTERM still finishes the trace */
}
