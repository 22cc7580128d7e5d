#!/usr/bin/env bash
# `make check-debian12`, `make check-debian13`: the README's two commands on a fresh Debian
# machine of that release, as a user would run them (docs/install.md).
#
#   Scripts/check-debian.sh bookworm|trixie
#
# mmdebstrap builds a root filesystem of the release (minbase, from this machine's own apt
# sources with the suite changed, so no mirror is named here) holding only the Swift toolchain's
# documented prerequisites and `make`. The toolchain (/opt/swift) is bound into it read-only, the
# committed HEAD of this checkout is cloned into it (with ../shared beside the clone, read-only,
# when it is there), and `make demo` then `make test` run inside, as root, in a mount namespace of
# their own (/proc, /sys, /dev bound; the network is the machine's: apt, PyPI and loopback). What
# they install, they install with apt-get inside the root filesystem.
#
# Prints each step's time and the result; exits with the first failing status. Needs root (it
# re-runs itself through sudo otherwise) and this machine's Debian and PyPI registries: without
# them it says so and exits 77 (skipped), never 0.
#
# KEEP=DIR keeps the root filesystem in DIR, and a second run with the same DIR reuses it (the
# clone is moved to the new HEAD, its .build kept): for repeated runs while fixing; not fresh.
# Swift packages are read through git's url.insteadOf for github.com when this machine sets one
# (its /opt/swift-packages); the same setting is written into the root filesystem.
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
start=$(date +%s)
toolchain=${SWIFT_ROOT:-$(dirname "$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")")}
[ -x "$toolchain/usr/bin/swift" ] || { echo "check-debian: no Swift toolchain at $toolchain (SWIFT_ROOT)" >&2; exit 2; }
shared=$(dirname "$repo")/shared

# The Swift toolchain's documented prerequisites for Debian (swift.org, "Installation via
# Tarball"), and make, which the README's commands are.
prerequisites=(binutils-gold gcc git libcurl4-openssl-dev libedit-dev libicu-dev libncurses-dev
  libpython3-dev libsqlite3-dev libxml2-dev pkg-config tzdata uuid-dev make ca-certificates)

step() { # NAME: prints the time since the last step
  local now
  now=$(date +%s)
  echo "== $1 ($(( now - start )) s so far)"
}

Scripts/install-packages.sh mmdebstrap

# The host's Debian repositories (their URIs), with this suite: main, -updates and -security.
mapfile -t uris < <(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 'Identifier: Packages' 'Origin: Debian' | sort -u)
if [ ${#uris[@]} -eq 0 ]; then
  apt-get update -qq
  mapfile -t uris < <(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 'Identifier: Packages' 'Origin: Debian' | sort -u)
fi
sources=()
for entry in "${uris[@]}"; do
  uri=${entry%% *} release=${entry#* }
  case "$release" in
    *-security) sources+=("deb $uri $suite-security main") ;;
    *-updates) sources+=("deb $uri $suite-updates main") ;;
    *-*) ;;
    *) sources+=("deb $uri $suite main") ;;
  esac
done
mapfile -t sources < <(printf '%s\n' "${sources[@]}" | sort -u)
[ ${#sources[@]} -gt 0 ] || { echo "check-debian: this machine's apt sources name no Debian repository" >&2; exit 77; }

if [ -n "${KEEP:-}" ]; then
  rootfs=$(readlink -f "$KEEP")
else
  work=$(mktemp -d /tmp/vignette-check-debian.XXXXXX)
  rootfs=$work/rootfs
  trap 'rm -rf --one-file-system "$work"' EXIT
fi

if [ ! -x "$rootfs/usr/bin/apt-get" ]; then
  step "root filesystem: Debian $suite minbase + the toolchain's prerequisites"
  printf '   %s\n' "${sources[@]}"
  mkdir -p "$(dirname "$rootfs")"
  if ! mmdebstrap --mode=root --variant=minbase --format=directory \
      --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
      --aptopt='APT::Install-Recommends "false"' \
      --include="$(IFS=,; echo "${prerequisites[*]}")" "$suite" "$rootfs" "${sources[@]}" >"$rootfs.mmdebstrap.log" 2>&1; then
    tail -n 30 "$rootfs.mmdebstrap.log" >&2
    if grep -qiE 'could not resolve|failed to fetch|temporary failure' "$rootfs.mmdebstrap.log"; then
      echo "check-debian: SKIPPED: Debian's repositories cannot be reached from here" >&2
      exit 77
    fi
    echo "check-debian: FAIL: mmdebstrap could not build the root filesystem" >&2
    exit 1
  fi
fi
cp -L /etc/resolv.conf "$rootfs/etc/resolv.conf"
# The Swift packages through this machine's git setting, when it has one.
git config --system --get-regexp '^url\..*\.insteadof$' | while read -r key value; do
  chroot "$rootfs" git config --system --add "$key" "$value"
done || true
mirror=$(git config --system --get-regexp '^url\..*\.insteadof$' | sed -n 's/^url\.\(\/[^ ]*\)\.insteadof .*/\1/p' | head -n 1)
# pip's settings of this machine (certificates, a wheel folder), when it has them.
[ -f /etc/pip.conf ] && cp /etc/pip.conf "$rootfs/etc/pip.conf"

# The clone of the committed HEAD, moved to it when KEEP reuses one.
head=$(git rev-parse HEAD)
if [ -d "$rootfs/src/vignette/.git" ]; then
  git -C "$rootfs/src/vignette" fetch -q "$repo" "$head"
  git -C "$rootfs/src/vignette" checkout -q --force "$head"
  git -C "$rootfs/src/vignette" clean -qfdx -e .build -e .venv-test
else
  mkdir -p "$rootfs/src"
  git clone -q --no-hardlinks "$repo" "$rootfs/src/vignette"
  git -C "$rootfs/src/vignette" checkout -q "$head"
fi
mkdir -p "$rootfs/src/shared" "$rootfs/opt/swift" "$rootfs/tmp"
[ -z "$mirror" ] || mkdir -p "$rootfs$mirror"
echo "== Debian $(cat "$rootfs/etc/debian_version") ($suite), $(git log -1 --format='%h %s' "$head" | cut -c1-70)"

log=${LOG:-/tmp/vignette-check-$suite.log}
step "make demo, then make test, inside (log: $log)"
set +e
unshare --mount --propagation private bash -c '
  set -e
  root=$1 toolchain=$2 shared=$3 mirror=$4
  mount -t proc proc "$root/proc"
  mount --rbind /sys "$root/sys"
  mount --rbind /dev "$root/dev"
  mount -t tmpfs tmpfs "$root/tmp"
  mount --bind "$toolchain" "$root/opt/swift" && mount -o remount,bind,ro "$root/opt/swift"
  if [ -d "$shared" ]; then mount --bind "$shared" "$root/src/shared" && mount -o remount,bind,ro "$root/src/shared"; fi
  if [ -n "$mirror" ]; then mount --bind "$mirror" "$root$mirror" && mount -o remount,bind,ro "$root$mirror"; fi
  exec chroot "$root" env -i HOME=/root LANG=C.UTF-8 TERM=dumb CI=true \
    PATH=/opt/swift/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    bash -c "cd /src/vignette && s=\$(date +%s) && make demo && echo \"== make demo: \$(( \$(date +%s) - s )) s\" && s=\$(date +%s) && make test && echo \"== make test: \$(( \$(date +%s) - s )) s\""
' bash "$rootfs" "$toolchain" "$shared" "$mirror" >"$log" 2>&1
status=$?
set -e
grep -E '^== |^(Test run|✔ Test run|✘ Test run)|tests? in [0-9]+ suites|passed after|failed after' "$log" | tail -n 40 || true
if [ $status -ne 0 ]; then
  grep -E '✘|error:' "$log" | head -n 60 >&2 || true
  echo "check-debian: FAIL on $suite (exit $status) after $(( $(date +%s) - start )) s; the log: $log" >&2
  exit $status
fi
echo "== check-debian passed on $suite in $(( $(date +%s) - start )) s"
