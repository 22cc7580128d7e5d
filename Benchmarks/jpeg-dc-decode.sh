#!/usr/bin/env bash
# Vignette's own decoders alone, in C, against libjpeg-turbo's decode at the same scale
# (decoder/jpeg_dc_decode.c): the DC-only decoder at 1/8, the reduced-scale ones at 1/4 and 1/2
# (sequential and progressive files). Builds it with clang -O2 (as SwiftPM builds the C target),
# checks the planes of every JPEG given that they take (default: the benchmark photo) and times
# both decodes, alternating in rounds.
#
#   Benchmarks/jpeg-dc-decode.sh [FILE...]     ITERATIONS (200) decodes of each, CPU time;
#                                              SCALES ("8 4 2") the denominators
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
source_dir="$repo/CSystemShims/CVignetteJPEGDC"
files=("$@")
[[ ${#files[@]} -gt 0 ]] || files=("${CORPUS:-$repo/../shared/corpus}/2569067123_aca715a2ee_o.jpg")
build="$(mktemp -d)"
trap 'rm -rf "$build"' EXIT
clang -O2 -I "$source_dir/include" -I "$source_dir" -o "$build/jpeg_dc_decode" "$here/decoder/jpeg_dc_decode.c" \
    "$source_dir"/*.c -lturbojpeg -lpthread
ITERATIONS="${ITERATIONS:-200}" "$build/jpeg_dc_decode" "${files[@]}"
