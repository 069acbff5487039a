# Sourced by the IOR bench scripts (ior_darshan.sh, ior_cpu.sh), with
# fail_loudly.sh and scratch_fs.sh: where IOR, Darshan and the runtime
# are, and each mode's environment.
#
#   ior_find WORK BUILD   sets $work and $build (absolute; WORK default
#                         /tmp/ior-darshan, bench/ior/build.sh's; BUILD
#                         default the tree's build/), $ior, $darshan and
#                         $preload, or stops the script
#   ior_mode_env MODE     sets the array $env for MODE, its logs and traces
#                         in $tmp/logs and the runtime's data directory
#                         $fs: plain, darshan, dxt, pfw, compact, and
#                         pfw-base, compact-base (with $base_preload)
. "$(dirname "${BASH_SOURCE[0]}")/fail_loudly.sh"
. "$(dirname "${BASH_SOURCE[0]}")/scratch_fs.sh"

ior_find() {
  work=$(cd "${1:-/tmp/ior-darshan}" && pwd)
  build=$(cd "${2:-$(dirname "${BASH_SOURCE[0]}")/../../build}" && pwd)
  ior=$work/ior-plain/src/ior
  darshan=$work/darshan/prefix/lib/libdarshan.so
  preload=$(find "$build" -name libdftracer_preload.so | head -1)
  bench_need "$ior" "IOR (bench/ior/build.sh first)"
  bench_need "$darshan" "libdarshan.so (bench/ior/build.sh first)"
  [ -n "$preload" ] || { echo "${0##*/}: no libdftracer_preload.so under $build" >&2; exit 2; }
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
