# Debian root filesystems for the release checks (Scripts/check-debian.sh), the runtime image's
# check (Scripts/image-check.sh) and the arm64 sysroot (Scripts/check-arm64.sh): sourced, not
# run. Needs root.
#
#   debian_sources SUITE          the `deb` lines of SUITE (main, -updates, -security) on the
#                                 Debian repositories this machine's apt is configured with, so
#                                 that no mirror is named here
#   debian_root SUITE DIR LOG PACKAGE...
#                                 mmdebstrap's minbase of SUITE in DIR with PACKAGE... (no
#                                 recommends); returns 77 when Debian's repositories cannot be
#                                 reached, 1 on another failure (LOG has mmdebstrap's output)
#   debian_checkout DIR REPO      the committed HEAD of REPO cloned into DIR/src/vignette (moved to
#                                 it, .build kept, when a clone is already there)
#   debian_run DIR COMMAND        COMMAND in DIR under chroot, as root, in a mount namespace of its
#                                 own: /proc, /sys, /dev, a fresh /tmp, the Swift toolchain
#                                 (SWIFT_ROOT, read-only at /opt/swift, on the PATH), the folder
#                                 DEBIAN_SHARED as ../shared beside the clone, and this machine's
#                                 git mirror of Swift packages
#                                 (its url.insteadOf for github.com) read-only; the network is the
#                                 machine's

# The Swift toolchain's documented prerequisites for Debian (swift.org, "Installation via
# Tarball"), and make, which the README's commands are.
debian_prerequisites=(binutils-gold gcc git libcurl4-openssl-dev libedit-dev libicu-dev libncurses-dev
  libpython3-dev libsqlite3-dev libxml2-dev pkg-config tzdata uuid-dev make ca-certificates)

debian_sources() {
  local suite=$1 entry uri release
  local -a uris lines=()
  mapfile -t uris < <(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 'Identifier: Packages' 'Origin: Debian' | sort -u)
  if [ ${#uris[@]} -eq 0 ]; then
    apt-get update -qq
    mapfile -t uris < <(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 'Identifier: Packages' 'Origin: Debian' | sort -u)
  fi
  for entry in "${uris[@]}"; do
    uri=${entry%% *} release=${entry#* }
    case "$release" in
      *-security) lines+=("deb $uri $suite-security main") ;;
      *-updates) lines+=("deb $uri $suite-updates main") ;;
      *-backports | *-proposed-updates) ;;
      *) lines+=("deb $uri $suite main") ;;
    esac
  done
  [ ${#lines[@]} -gt 0 ] && printf '%s\n' "${lines[@]}" | sort -u
}

debian_root() {
  local suite=$1 dir=$2 log=$3
  shift 3
  local packages
  packages=$(IFS=,; echo "$*")
  local -a sources
  mapfile -t sources < <(debian_sources "$suite")
  [ ${#sources[@]} -gt 0 ] || { echo "this machine's apt sources name no Debian repository" >"$log"; return 77; }
  mkdir -p "$(dirname "$dir")"
  if ! mmdebstrap --mode=root --variant=minbase --format=directory \
      --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
      --aptopt='APT::Install-Recommends "false"' \
      --include="$packages" "$suite" "$dir" "${sources[@]}" >"$log" 2>&1; then
    grep -qiE 'could not resolve|failed to fetch|temporary failure|unable to connect' "$log" && return 77
    return 1
  fi
}

# The url.insteadOf folder of this machine's git (its copies of Swift packages), if any.
debian_git_mirror() {
  git config --system --get-regexp '^url\..*\.insteadof$' 2>/dev/null | sed -n 's/^url\.\(\/[^ ]*\)\.insteadof .*/\1/p' | head -n 1
}

debian_checkout() {
  local dir=$1 repo=$2 head key value
  head=$(git -C "$repo" rev-parse HEAD)
  # This machine's network settings: its resolver, pip's settings, and the certificate
  # authorities it adds to Debian's (a proxy's, where its network has one), which apt, pip and git
  # inside must trust as the machine does.
  cp -L /etc/resolv.conf "$dir/etc/resolv.conf"
  [ -f /etc/pip.conf ] && cp /etc/pip.conf "$dir/etc/pip.conf"
  if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
    mkdir -p "$dir/usr/local/share/ca-certificates"
    cp /usr/local/share/ca-certificates/*.crt "$dir/usr/local/share/ca-certificates/"
    chroot "$dir" update-ca-certificates >/dev/null 2>&1 || true
  fi
  chroot "$dir" git config --system --unset-all core.excludesFile >/dev/null 2>&1 || true
  git config --system --get-regexp '^url\..*\.insteadof$' 2>/dev/null | while read -r key value; do
    chroot "$dir" git config --system --get-all "$key" 2>/dev/null | grep -qxF "$value" \
      || chroot "$dir" git config --system --add "$key" "$value"
  done
  if [ -d "$dir/src/vignette/.git" ]; then
    git -C "$dir/src/vignette" fetch -q "$repo" "$head"
    git -C "$dir/src/vignette" checkout -q --force "$head"
    git -C "$dir/src/vignette" clean -qfdx -e .build -e .venv-test
  else
    mkdir -p "$dir/src"
    git clone -q --no-hardlinks "$repo" "$dir/src/vignette"
    git -C "$dir/src/vignette" checkout -q "$head"
  fi
}

debian_run() {
  local dir=$1 command=$2 toolchain shared mirror
  toolchain=${SWIFT_ROOT:-$(dirname "$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")")}
  [ -x "$toolchain/usr/bin/swift" ] || { echo "no Swift toolchain at $toolchain (SWIFT_ROOT)" >&2; return 2; }
  shared=${DEBIAN_SHARED:-}
  mirror=$(debian_git_mirror)
  mkdir -p "$dir/src/shared" "$dir/opt/swift" "$dir/tmp"
  [ -z "$mirror" ] || mkdir -p "$dir$mirror"
  unshare --mount --propagation private bash -c '
    set -e
    root=$1 toolchain=$2 shared=$3 mirror=$4 command=$5
    readonly_bind() { mount --bind "$1" "$2" && mount -o remount,bind,ro "$2"; }
    mount -t proc proc "$root/proc"
    mount --rbind /sys "$root/sys"
    mount --rbind /dev "$root/dev"
    mount -t tmpfs tmpfs "$root/tmp"
    readonly_bind "$toolchain" "$root/opt/swift"
    if [ -d "$shared" ]; then readonly_bind "$shared" "$root/src/shared"; fi
    if [ -n "$mirror" ]; then readonly_bind "$mirror" "$root$mirror"; fi
    exec chroot "$root" env -i HOME=/root LANG=C.UTF-8 TERM=dumb CI=true \
      PATH=/opt/swift/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
      bash -c "cd /src/vignette && $command"
  ' bash "$dir" "$toolchain" "$shared" "$mirror" "$command"
}
