# Sourced by the bench scripts: a scratch directory for a run, its files on
# a tmpfs (mounted here when run as root, so that the page cache of a disk
# does not enter the figures; otherwise the directory's own file system,
# which the scripts print), unmounted and removed at exit.
#
#   bench_scratch NAME SIZE [SUBDIR]   sets $tmp (a new /tmp/NAME-XXXXXX) and
#                                      $fs ($tmp/SUBDIR, default fs: the tmpfs)
bench_scratch() {
  tmp=$(mktemp -d "/tmp/$1-XXXXXX")
  fs=$tmp/${3:-fs}
  mkdir -p "$fs"
  bench_scratch_mounted=0
  if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size="$2" tmpfs "$fs" 2>/dev/null; then
    bench_scratch_mounted=1
  fi
  trap bench_scratch_cleanup EXIT
}

bench_scratch_cleanup() {
  if [ "$bench_scratch_mounted" -eq 1 ]; then
    umount "$fs"
  fi
  rm -rf "$tmp"
}
