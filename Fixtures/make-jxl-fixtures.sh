#!/usr/bin/env bash
# The JPEG XL fixtures, from a 320x240 RGB image: make-fixtures.sh runs it with its rgb.tiff and
# output folder; it runs alone too (Fixtures/make-jxl-fixtures.sh Fixtures/rgb.tiff Fixtures).
# Needs libvips-tools (jxlsave, libjxl) and python3.
#
#   rgb.jxl            320x240 lossy JPEG XL (libvips' jxlsave, Q 90, effort 4, stripped)
#   cut-short.jxl      its first 40 %
#   hostile-huge.jxl   a bare codestream whose size header claims 100000x100000, then nothing
set -euo pipefail
src=$1 out=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
vips jxlsave "$src" "$out/rgb.jxl" --Q 90 --effort 4 --strip
python3 - "$out" <<'PY'
import os, sys
out = sys.argv[1]
data = open(os.path.join(out, "rgb.jxl"), "rb").read()
open(os.path.join(out, "cut-short.jxl"), "wb").write(data[: int(len(data) * 0.40)])

# JPEG XL's codestream (ISO/IEC 18181-1): the signature FF 0A, then fields packed from the least
# significant bit: SizeHeader (div8 = 0, height, ratio = 0, width, each size a U32 with selector 3:
# 30 bits of size - 1), ImageMetadata all_default = 1, CustomTransformData all_default = 1.
bits = []
def put(value, count):
    bits.extend((value >> i) & 1 for i in range(count))
put(0, 1)
put(3, 2); put(100000 - 1, 30)
put(0, 3)
put(3, 2); put(100000 - 1, 30)
put(1, 1); put(1, 1)
bits.extend([0] * (-len(bits) % 8))
packed = bytes(sum(b << j for j, b in enumerate(bits[i:i + 8])) for i in range(0, len(bits), 8))
open(os.path.join(out, "hostile-huge.jxl"), "wb").write(b"\xff\x0a" + packed + bytes(64))
PY
[ "$(vipsheader -f width "$out/hostile-huge.jxl")x$(vipsheader -f height "$out/hostile-huge.jxl")" = 100000x100000 ] \
  || { echo "error: hostile-huge.jxl header is not 100000x100000" >&2; exit 1; }
if vips copy "$out/cut-short.jxl[fail_on=truncated]" "$scratch/x.png" 2>/dev/null; then
  echo "error: cut-short.jxl decodes even with fail_on=truncated" >&2; exit 1
fi
