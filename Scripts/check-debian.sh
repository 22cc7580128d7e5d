#!/usr/bin/env bash
# `make check-debian12`, `make check-debian13`: the README's two commands on a fresh Debian
# machine of that release, as a user would run them (docs/install.md).
#
#   Scripts/check-debian.sh bookworm|trixie
#
# mmdebstrap builds a root filesystem of the release (minbase, from this machine's own apt
# sources with the suite changed, so no mirror is named here) holding only the Swift toolchain's
# documented prerequisites and `make`. The toolchain is bound into it read-only, the committed HEAD
# of this checkout is cloned into it (with ../shared beside the clone, read-only, when it is
# there), and `make demo` then `make test` run inside as root (Scripts/debian-root.sh). What they
# install, they install with apt-get inside the root filesystem; the network is the machine's
# (Debian's repositories, PyPI, loopback).
#
# Prints each step's time, the test count and the result; exits with the first failing status.
# Needs root (it re-runs itself through sudo otherwise) and Debian's repositories: without them it
# says so and exits 77 (skipped), never 0.
#
# KEEP=DIR keeps the root filesystem in DIR, and a second run with the same DIR reuses it (the
# clone moved to the new HEAD, its .build kept): for repeated runs while fixing; not fresh.
# LOG=FILE: where the whole output goes (default /tmp/vignette-check-SUITE.log).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
if [ "$(id -u)" -ne 0 ]; then
  exec sudo --preserve-env=KEEP,SWIFT_ROOT,LOG "$repo/Scripts/check-debian.sh" "$@"
fi
suite=${1:-}
case "$suite" in
  bookworm | trixie) ;;
  *) echo "usage: Scripts/check-debian.sh bookworm|trixie" >&2; exit 2 ;;
esac
# shellcheck source=Scripts/debian-root.sh
source Scripts/debian-root.sh
start=$(date +%s)
log=${LOG:-/tmp/vignette-check-$suite.log}
step() { echo "== $1 ($(( $(date +%s) - start )) s so far)"; }

Scripts/install-packages.sh mmdebstrap

if [ -n "${KEEP:-}" ]; then
  rootfs=$(readlink -f "$KEEP")
else
  work=$(mktemp -d /tmp/vignette-check-debian.XXXXXX)
  rootfs=$work/rootfs
  trap 'rm -rf --one-file-system "$work"' EXIT
fi

if [ ! -x "$rootfs/usr/bin/apt-get" ]; then
  step "root filesystem: Debian $suite minbase + the toolchain's prerequisites: ${debian_prerequisites[*]}"
  status=0
  debian_root "$suite" "$rootfs" "$log" "${debian_prerequisites[@]}" || status=$?
  if [ $status -eq 77 ]; then
    tail -n 5 "$log" >&2
    echo "check-debian: SKIPPED: Debian's $suite repositories cannot be reached from here" >&2
    exit 77
  elif [ $status -ne 0 ]; then
    tail -n 30 "$log" >&2
    echo "check-debian: FAIL: mmdebstrap could not build the root filesystem" >&2
    exit 1
  fi
fi
debian_checkout "$rootfs" "$repo"
echo "== Debian $(cat "$rootfs/etc/debian_version") ($suite), $(git log -1 --format='%h %s' | cut -c1-70)"

step "make demo, then make test, inside (log: $log)"
status=0
DEBIAN_SHARED=$(dirname "$repo")/shared debian_run "$rootfs" \
  's=$(date +%s); make demo && echo "== make demo: $(( $(date +%s) - s )) s" && s=$(date +%s) && make test && echo "== make test: $(( $(date +%s) - s )) s"' \
  >"$log" 2>&1 || status=$?
grep -E '^== |Test run with|tests? in [0-9]+ suites? (passed|failed)|^Executed' "$log" | tail -n 30 || true
# The versions the tests ran with (dpkg-query fails for the names the release lacks).
versions=$(chroot "$rootfs" dpkg-query -W -f='${db:Status-Abbrev} ${Package} ${Version}\n' 'libvips42*' libheif1 'libavcodec[0-9]*' 'libopencv-objdetect4*' 2>/dev/null \
  | awk '$1 == "ii" {printf "%s%s %s", sep, $2, $3; sep=", "}') || true
echo "== versions inside: $versions"
if [ $status -ne 0 ]; then
  grep -E '✘|error:' "$log" | grep -v '✘ Test run' | head -n 60 >&2 || true
  echo "check-debian: FAIL on $suite (exit $status) after $(( $(date +%s) - start )) s; the log: $log" >&2
  exit $status
fi
echo "== check-debian passed on $suite in $(( $(date +%s) - start )) s"
