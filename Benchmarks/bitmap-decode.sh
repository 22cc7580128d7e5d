#!/usr/bin/env bash
# BMP and ICO decoding, Vignette's own decoders against Pillow's, in one run, side by side: each
# file decoded whole in memory again and again in one process (bitmap-decode/, a package on
# VignetteCodecs alone: `ImageDecoder.decode`, the pixels in a libvips image; peers/pillow_decode.py: `Image.open(...).load()`, and for the palette file
# also `.convert("RGB")`, the colours Vignette makes). Inputs, made first in a temporary folder
# from the corpus' 2725×2225 photo (or ImageMagick's plasma when the corpus is absent):
#   rgb24.bmp      4000×3000, 24 bits (ImageMagick BMP3)
#   rle8.bmp       4000×3000, 256 colours, RLE8 (ImageMagick BMP3 -compress RLE)
#   rgba32.bmp     1024×768, 32 bits with an alpha mask (Pillow, BGRA)
#   icon-bmp.ico   256×256 32-bit bitmap entry plus 16, 32, 48 (Pillow, bitmap_format="bmp")
#   icon-png.ico   256×256 PNG entry plus 16, 32, 48 (Pillow)
# Vignette runs twice: with glibc's defaults (a server's) and with freed memory kept for reuse
# (`ImagingRuntime.keepFreedMemoryForReuse()`, the batch command's). Tools alternate for ROUNDS
# rounds of SECONDS_EACH seconds each; the table gives median decodes a second and
# Vignette's ratio to Pillow (above 1: Vignette faster).
#
#   Benchmarks/bitmap-decode.sh     SECONDS_EACH (3), ROUNDS (3), PYTHON (Benchmarks/.venv, else .venv-test),
#                                   BENCH (bitmap-decode/.build/release/BitmapDecodeBench, built when absent)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here/.."
seconds=${SECONDS_EACH:-3}
rounds=${ROUNDS:-3}
bench=${BENCH:-$here/bitmap-decode/.build/release/BitmapDecodeBench}
python=${PYTHON:-}
for candidate in "$here/.venv/bin/python" "$PWD/.venv-test/bin/python"; do
  [ -n "$python" ] && break
  [ -x "$candidate" ] && python=$candidate
done
[ -n "$python" ] || { echo "needs a Python with Pillow: Benchmarks/setup-venv.sh or Scripts/test-venv.sh" >&2; exit 2; }
if [ ! -x "$bench" ]; then (cd "$here/bitmap-decode" && swift build -c release >&2); fi
IM=convert-im6.q16
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
photo=../shared/corpus/2569067123_aca715a2ee_o.jpg
if [ ! -f "$photo" ]; then "$IM" -size 2725x2225 -seed 7 plasma: "$out/photo.png"; photo="$out/photo.png"; fi
"$IM" "$photo" -resize '4000x3000!' BMP3:"$out/rgb24.bmp"
"$IM" "$photo" -resize '4000x3000!' -dither None -colors 256 -compress RLE BMP3:"$out/rle8.bmp"
"$python" - "$photo" "$out" <<'PY'
import sys
from PIL import Image
photo, out = sys.argv[1], sys.argv[2]
image = Image.open(photo).convert("RGB")
rgba = image.resize((1024, 768)).convert("RGBA")
rgba.putalpha(Image.linear_gradient("L").resize((1024, 768)))
rgba.save(f"{out}/rgba32.bmp")
icon = image.resize((256, 256)).convert("RGBA")
sizes = [(16, 16), (32, 32), (48, 48), (256, 256)]
icon.save(f"{out}/icon-bmp.ico", sizes=sizes, bitmap_format="bmp")
icon.save(f"{out}/icon-png.ico", sizes=sizes)
PY

results="$out/results.jsonl"
for round in $(seq 1 "$rounds"); do
  for file in rgb24.bmp rle8.bmp rgba32.bmp icon-bmp.ico icon-png.ico; do
    "$bench" "$out/$file" "$seconds" 1 | sed "s/^{/{\"file\": \"$file\", /" >> "$results"
    "$bench" "$out/$file" "$seconds" 1 reuse | sed "s/^{/{\"file\": \"$file\", /" >> "$results"
    (cd "$here/peers" && "$python" pillow_decode.py --input "$out/$file" --seconds "$seconds" --warmup 1) \
      | sed "s/^{/{\"file\": \"$file\", /" >> "$results"
    if [ "$file" = rle8.bmp ]; then
      (cd "$here/peers" && "$python" pillow_decode.py --input "$out/$file" --seconds "$seconds" --warmup 1 --convert RGB --tool "Pillow +RGB") \
        | sed "s/^{/{\"file\": \"$file\", /" >> "$results"
    fi
  done
done

python3 - "$results" "$(nproc)" "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)" <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
print(f"{sys.argv[3]}, {sys.argv[2]} CPUs; median of the rounds, decodes a second")
print()
print("| file | Vignette | Vignette, freed memory reused | Pillow | Pillow, then RGB | Vignette / Pillow | reused / Pillow |")
print("|---|---|---|---|---|---|---|")
files = list(dict.fromkeys(row["file"] for row in rows))
for file in files:
    def median(tool):
        values = [row["ops_per_sec"] for row in rows if row["file"] == file and row["tool"] == tool]
        return statistics.median(values) if values else None
    ours, reused, theirs, converted = median("Vignette"), median("Vignette reuse"), median("Pillow"), median("Pillow +RGB")
    shown = f"{converted:.1f}" if converted else "-"
    print(f"| {file} | {ours:.1f} | {reused:.1f} | {theirs:.1f} | {shown} | {ours / theirs:.2f} | {reused / theirs:.2f} |")
PY
