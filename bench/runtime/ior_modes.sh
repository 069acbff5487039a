# Sourced by the IOR bench scripts (ior_darshan.sh, ior_cpu.sh): where
# IOR, Darshan and the runtime are, and each mode's environment.
#
#   ior_find WORK BUILD   sets $ior, $darshan and $preload (WORK is
#                         bench/ior/build.sh's; BUILD holds
#                         libdftracer_preload.so), or stops the script
#   ior_mode_env MODE     sets the array $env for MODE, its logs and traces
#                         in $tmp/logs and the runtime's data directory
#                         $fs: plain, darshan, dxt, pfw, compact, and
#                         pfw-base, compact-base (with $base_preload)
ior_find() {
  ior=$1/ior-plain/src/ior
  darshan=$1/darshan/prefix/lib/libdarshan.so
  preload=$(find "$2" -name libdftracer_preload.so | head -1)
  bench_need "$ior" "IOR (bench/ior/build.sh first)"
  bench_need "$darshan" "libdarshan.so (bench/ior/build.sh first)"
  [ -n "$preload" ] || { echo "${0##*/}: no libdftracer_preload.so under $2" >&2; exit 2; }
}

ior_mode_env() {
  local lib=$preload
  env=()
  case $1 in
    plain) ;;
    darshan) env=(DARSHAN_LOG_DIR_PATH="$tmp/logs" LD_PRELOAD="$darshan") ;;
    dxt) env=(DARSHAN_LOG_DIR_PATH="$tmp/logs" DXT_ENABLE_IO_TRACE=1 LD_PRELOAD="$darshan") ;;
    pfw | compact | pfw-base | compact-base)
      [ "${1%-base}" = "$1" ] || lib=$base_preload
      env=(DFTRACER_ENABLE=1 DFTRACER_DATA_DIR="$fs" DFTRACER_LOG_FILE="$tmp/logs/trace" LD_PRELOAD="$lib")
      [ "${1%-base}" != compact ] || env+=(DFTRACER_TRACE_FORMAT=compact) ;;
    *) echo "${0##*/}: unknown mode $1" >&2; exit 2 ;;
  esac
}
