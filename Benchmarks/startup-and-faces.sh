#!/usr/bin/env bash
# One `vignette thumbnail` process at a time, the whole process timed (hyperfine) and counted in
# instructions (callgrind, which the machine's load does not change): the release binary beside
# vipsthumbnail, and beside an older build (BEFORE, e.g. 0.1.0's `--traits CLI,Video`, which linked
# FFmpeg) and a `--traits CLI` build (CLI_ONLY) when given; then `g:sm` against `g:obj:face` crops
# with the YuNet model (FACE_MODEL, default ../shared/models/face_detection_yunet_2022mar.onnx).
# The figures in docs/performance.md ("Startup: FFmpeg and OpenCV opened when needed", "Faces").
#
#   Benchmarks/startup-and-faces.sh     RUNS (40) per command; VIGNETTE (.build/release/vignette,
#                                       built with CLI,Video,Faces when absent); CORPUS (../shared/corpus)
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${CORPUS:-../shared/corpus}
model=${FACE_MODEL:-../shared/models/face_detection_yunet_2022mar.onnx}
runs=${RUNS:-40}
bin=${VIGNETTE:-.build/release/vignette}
if [ ! -x "$bin" ]; then
  swift build -c release --static-swift-stdlib --product vignette --traits CLI,Video,Faces >&2
fi
command -v hyperfine >/dev/null && command -v valgrind >/dev/null && command -v vipsthumbnail >/dev/null ||
  { echo "needs hyperfine, valgrind and vipsthumbnail (make install-tools)" >&2; exit 2; }
photo=$corpus/2569067123_aca715a2ee_o.jpg small=$corpus/Landscape_1.jpg
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT

echo "## One thumbnail per process (hyperfine, $runs runs, $(uptime | sed 's/.*load/load/'))"
binaries=("$bin"); [ -n "${BEFORE:-}" ] && binaries+=("$BEFORE"); [ -n "${CLI_ONLY:-}" ] && binaries+=("$CLI_ONLY")
commands=()
for source in "$photo" "$small"; do
  for b in "${binaries[@]}"; do commands+=("$b thumbnail $source --size 256 --out $out"); done
  commands+=("vipsthumbnail $source --size 256 -o $out/v-%s.jpg")
done
hyperfine -N -w 5 -r "$runs" --export-markdown "$out/startup.md" "${commands[@]}" >/dev/null
cat "$out/startup.md"

echo; echo "## Instructions (callgrind; binaries with their debug information stripped)"
for b in "${binaries[@]}"; do
  strip --strip-debug -o "$out/stripped" "$b"
  count=$(valgrind --tool=callgrind --callgrind-out-file="$out/cg.out" "$out/stripped" thumbnail "$photo" --size 720x588 --quality 80 --out "$out" 2>&1 |
    sed -n 's/.*Collected : //p')
  echo "- $b: $count"
done

if [ -f "$model" ]; then
  echo; echo "## g:sm against g:obj:face (hyperfine, $runs runs)"
  hyperfine -N -w 3 -r "$runs" --export-markdown "$out/faces.md" \
    "$bin thumbnail $photo --size 720x588 --fit cover --gravity sm --out $out" \
    "$bin thumbnail $photo --size 720x588 --fit cover --gravity face --face-model $model --out $out" \
    "$bin thumbnail $small --size 300x300 --fit cover --gravity sm --out $out" \
    "$bin thumbnail $small --size 300x300 --fit cover --gravity face --face-model $model --out $out" \
    "$bin thumbnail $small --size 300x300 --fit cover --gravity face --out $out" >/dev/null
  cat "$out/faces.md"
fi
