#!/usr/bin/env bash
# libjxl's own `ssimulacra2` tool, the reference Vignette's SSIMULACRA 2.1 is checked against:
#
#   Scripts/ssimulacra2-reference.sh ORIGINAL DISTORTED     prints the reference's score
#   Scripts/ssimulacra2-reference.sh --path                  prints the command it runs
#
# Debian 13 ships it in libjxl-devtools (libjxl 0.11); Debian 12 has no such package. It is taken
# from, in order: $SSIMULACRA2_REFERENCE (a command), `ssimulacra2` on PATH when it is libjxl's,
# or a Debian 13 root filesystem in .ref-trixie/rootfs holding only libjxl-devtools and what it
# needs, run through that root filesystem's own dynamic loader (no chroot, so any path can be
# read). The root filesystem is made here with mmdebstrap when it is missing (root and Debian's
# repositories needed; about 220 MB); NO_BUILD=1 never makes it (then exit 77 when there is none).
#
# The PyPI package `ssimulacra2` (0.3.0) is not a reference: it replaces the recursive Gaussian
# with scipy's, which moves scores by more than 1, and drops alpha before its alpha handling.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rootfs="$repo/.ref-trixie/rootfs"

reference_command() {
    if [[ -n "${SSIMULACRA2_REFERENCE:-}" ]]; then
        echo "$SSIMULACRA2_REFERENCE"
    elif command -v ssimulacra2 >/dev/null && dpkg -S "$(command -v ssimulacra2)" 2>/dev/null | grep -q libjxl; then
        command -v ssimulacra2
    elif [[ -x "$rootfs/usr/bin/ssimulacra2" ]]; then
        echo "$rootfs/usr/lib64/ld-linux-x86-64.so.2 --library-path $rootfs/usr/lib/x86_64-linux-gnu $rootfs/usr/bin/ssimulacra2"
    else
        return 1
    fi
}

if ! reference_command >/dev/null; then
    if [[ "${NO_BUILD:-0}" == 1 ]]; then
        echo "ssimulacra2-reference: no reference tool (run Scripts/ssimulacra2-reference.sh once as root to make one)" >&2
        exit 77
    fi
    [[ "$(id -u)" -eq 0 ]] || { echo "ssimulacra2-reference: making the Debian 13 root filesystem needs root" >&2; exit 77; }
    command -v mmdebstrap >/dev/null || apt-get install -y -qq mmdebstrap >/dev/null
    mirror="$(apt-get indextargets --format '$(REPO_URI)' 'Identifier: Packages' 'Origin: Debian' | grep -v security | head -n 1)"
    mirror="${mirror:-http://deb.debian.org/debian/}"
    mkdir -p "$(dirname "$rootfs")"
    echo "ssimulacra2-reference: making $rootfs (Debian 13, libjxl-devtools) from $mirror" >&2
    if ! mmdebstrap --mode=root --variant=minbase --format=directory \
        --aptopt='APT::Install-Recommends "false"' --include=libjxl-devtools \
        trixie "$rootfs" "deb $mirror trixie main" >"$rootfs.log" 2>&1; then
        tail -n 20 "$rootfs.log" >&2
        rm -rf --one-file-system "$rootfs"
        echo "ssimulacra2-reference: mmdebstrap failed (log above)" >&2
        exit 77
    fi
fi
command="$(reference_command)"
if [[ "${1:-}" == --path ]]; then
    echo "$command"
    exit 0
fi
[[ $# -eq 2 ]] || { echo "usage: Scripts/ssimulacra2-reference.sh ORIGINAL DISTORTED | --path" >&2; exit 2; }
# shellcheck disable=SC2086 # the command is words by design
exec $command "$1" "$2"
