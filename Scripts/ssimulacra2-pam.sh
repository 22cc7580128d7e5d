#!/usr/bin/env bash
# The pixels libvips decodes from IN, 8-bit, as a PAM file OUT (P7: GRAYSCALE, GRAYSCALE_ALPHA, RGB
# or RGB_ALPHA), which both libjxl's ssimulacra2 and Tests/CChecks/ssimulacra2_check.c read: so the
# SSIMULACRA 2 scripts compare metrics on one decoding of each file.
#
#   Scripts/ssimulacra2-pam.sh IN OUT
set -euo pipefail
[[ $# -eq 2 ]] || { echo "usage: Scripts/ssimulacra2-pam.sh IN OUT" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
vips cast "$1" "$work/pixels.v" uchar
width="$(vipsheader -f width "$work/pixels.v")"
height="$(vipsheader -f height "$work/pixels.v")"
bands="$(vipsheader -f bands "$work/pixels.v")"
case "$bands" in 1) type=GRAYSCALE ;; 2) type=GRAYSCALE_ALPHA ;; 3) type=RGB ;; 4) type=RGB_ALPHA ;;
    *) echo "ssimulacra2-pam: $1 has $bands bands" >&2; exit 1 ;; esac
vips rawsave "$work/pixels.v" "$work/pixels.raw"
{
    printf 'P7\nWIDTH %s\nHEIGHT %s\nDEPTH %s\nMAXVAL 255\nTUPLTYPE %s\nENDHDR\n' "$width" "$height" "$bands" "$type"
    cat "$work/pixels.raw"
} > "$2"
