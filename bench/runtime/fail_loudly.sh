# Sourced by the bench scripts: a command that fails stops the script with
# the command, its exit status and its message, and never becomes a figure
# (issue 40).
#
#   bench_run OUT CMD...   CMD with its stdout in OUT (a file) and its stderr
#                          in OUT.err; on failure, both printed and exit 1
#   bench_need FILE WHAT   stop unless FILE exists and is not empty
bench_run() {
  local out=$1 status=0
  shift
  "$@" >"$out" 2>"$out.err" || status=$?
  if [ "$status" -ne 0 ]; then
    printf '%s: failed (exit %s):' "${0##*/}" "$status" >&2
    printf ' %q' "$@" >&2
    printf '\n' >&2
    tail -n 20 "$out.err" "$out" >&2
    exit 1
  fi
}

bench_need() {
  if [ ! -s "$1" ]; then
    echo "${0##*/}: no $2 ($1)" >&2
    exit 1
  fi
}
