#!/usr/bin/env bash
# Autoquality (aq:ssimulacra2 at targets 70, 80, 85) and f:best (JPEG, WebP, AVIF) against fixed
# JPEG qualities 60-95 on a folder of photos: bytes, SSIMULACRA2 scores, encodes and milliseconds
# per photo (Benchmarks/autoquality.py says what is run). The photos are not in the repository:
# e.g. the Kodak set and USC-SIPI's colour "misc" images, in a folder outside it.
#
#   Benchmarks/autoquality.sh PHOTOS_DIR [OUT_DIR]
#
# Uses .build/release/vignette (built when missing), or VIGNETTE. Prints a Markdown table; writes
# OUT_DIR/results.json and OUT_DIR/autoquality.png (total bytes against score, with matplotlib).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[[ $# -ge 1 && -d "$1" ]] || { echo "usage: $0 PHOTOS_DIR [OUT_DIR]" >&2; exit 2; }
if [[ -z "${VIGNETTE:-}" ]]; then
    VIGNETTE="$repo/.build/release/vignette"
    [[ -x "$VIGNETTE" ]] || (cd "$repo" && swift build -c release --product vignette >&2)
fi
export VIGNETTE
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $("$VIGNETTE" --version 2>/dev/null || echo vignette)" >&2
PYTHON="${PYTHON:-python3}"
exec "$PYTHON" "$repo/Benchmarks/autoquality.py" "$@"
