#!/usr/bin/env bash
# Where the CPU of a traced IOR run goes (issue 40's floor): IOR 4.0.0 under
# `mpiexec -n NP`, -a POSIX -t 4k, its files on a tmpfs, each mode run ROUNDS
# times under `perf record -e task-clock` (a software clock: no PMU needed).
# Per mode, summed over its runs, in CPU milliseconds (samples / frequency):
#
#   ranks      the IOR processes' threads
#   interposer of which in the interposer's library (libdarshan, or
#              libdftracer_core: the wrappers and the record hand-over)
#   writer     the runtime's writer thread (dftracer-write), split into
#              encoding (libdftracer_core), zstd, the kernel (its writes of
#              the trace) and the rest
#
# Darshan writes its counters (and DXT its trace) at MPI_Finalize, after
# the phases; this runtime writes during them, on its writer thread. On a
# machine with no spare core the writer's CPU comes out of the ranks'.
#
#   bench/runtime/ior_cpu.sh [WORK] [BUILD_DIR] [ROUNDS]
#
# WORK and BUILD_DIR as bench/runtime/ior_darshan.sh's; ROUNDS default 5.
# Environment: NP (default 2), XFER (-t:-b, default 4k:16m), MODES (of
# ior_modes.sh; default "plain darshan pfw compact").
set -euo pipefail
shopt -s inherit_errexit
. "$(dirname "$0")/ior_modes.sh"
ior_find "${1:-}" "${2:-}"
rounds=${3:-5}
np=${NP:-2}
xfer=${XFER:-4k:16m}
freq=4999
read -r -a modes <<< "${MODES:-plain darshan pfw compact}"
command -v perf >/dev/null || { echo "ior_cpu.sh: needs perf (linux-perf)" >&2; exit 2; }

bench_scratch dft-ior-cpu 2g
mkdir -p "$tmp/logs"
echo "mpiexec -n $np IOR -a POSIX -t ${xfer%%:*} -b ${xfer#*:} -s 4 -F -w -r -e -C -i 3; $rounds runs a mode;" \
  "perf task-clock at $freq Hz; files on $(df -T "$fs" | awk 'NR==2 {print $2}'); load $(cut -d' ' -f1-3 /proc/loadavg)"

for r in $(seq "$rounds"); do
  for mode in "${modes[@]}"; do
    ior_mode_env "$mode"
    rm -rf "${tmp:?}/logs"/* "$fs"/ior*
    bench_run "$tmp/ior.out" env "${env[@]}" perf record -q -F "$freq" -e task-clock -o "$tmp/perf.data" \
      mpiexec -n "$np" "$ior" -a POSIX -t "${xfer%%:*}" -b "${xfer#*:}" -s 4 -F -w -r -e -C -i 3 -o "$fs/ior"
    # comm, ip, dso of each sample -> "mode class"
    perf script -i "$tmp/perf.data" -F comm,ip,dso 2>/dev/null |
      awk -v m="$mode" '{
        comm = $1; dso = $NF
        if (comm == "ior") {
          print m, "ranks"
          if (dso ~ /libdarshan|libdftracer_core/) print m, "interposer"
        } else if (comm == "dftracer-write") {
          if (dso ~ /libdftracer_core/) c = "encoding"
          else if (dso ~ /libzstd/) c = "zstd"
          else if (dso ~ /kernel/) c = "kernel"
          else c = "other"
          print m, "writer"; print m, "writer-" c
        }
      }' >> "$tmp/samples"
  done
done

printf '\n| mode | ranks ms | interposer ms | writer ms | writer: encoding | zstd | kernel | other |\n|---|---|---|---|---|---|---|---|\n'
for mode in "${modes[@]}"; do
  awk -v m="$mode" -v f="$freq" -v n="$rounds" '
    $1 == m { c[$2]++ }
    END {
      ms = 1000 / f / n # per run
      printf "| %s | %.0f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |\n", m,
        c["ranks"] * ms, c["interposer"] * ms, c["writer"] * ms,
        c["writer-encoding"] * ms, c["writer-zstd"] * ms,
        c["writer-kernel"] * ms, c["writer-other"] * ms
    }' "$tmp/samples"
done
echo "(per run: the mean of $rounds; samples of the kernel taken right after a system call may land in the wrapper that made it)"
