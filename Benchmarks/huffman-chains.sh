#!/usr/bin/env bash
# Whether two Huffman chains in one thread would speed up the sequential decoder at 1/4 or 1/2
# (issue 48; decoder/huffman_chains.c): the entropy decode alone, one chain against two chains
# interleaved in three ways, over each baseline JPEG given without restart intervals (default:
# the benchmark photo, and a file of one repeated MCU, whose branches a CPU predicts, for the
# time the same number of bits takes without branch mispredictions).
#
#   Benchmarks/huffman-chains.sh [FILE...]     SCALE 2 (1/4, default) or 4 (1/2);
#                                              ROUNDS (15) x ITERATIONS (20) decodes of each way
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
source_dir="$repo/CSystemShims/CVignetteJPEGDC"
build="$(mktemp -d)"
trap 'rm -rf "$build"' EXIT
files=("$@")
if [[ ${#files[@]} -eq 0 ]]; then
    # 2720 x 2224 pixels, one 16 x 16 tile repeated; at quality 40 about the photo's bits a block.
    python3 - "$build/tile.ppm" <<'PY'
import math, random, sys
random.seed(1)
width, height = 2720, 2224
tile = [[max(0, min(255, int(128 + 40 * math.sin(x * 0.7 + c) + 30 * math.cos(y * 0.9) + random.randint(-20, 20))))
         for x in range(16) for c in range(3)] for y in range(16)]
rows = [bytes(tile[y][(x % 16) * 3 + c] for x in range(width) for c in range(3)) for y in range(16)]
with open(sys.argv[1], "wb") as f:
    f.write(b"P6 %d %d 255\n" % (width, height))
    for y in range(height):
        f.write(rows[y % 16])
PY
    cjpeg -quality 40 -outfile "$build/repeated-mcu.jpg" "$build/tile.ppm"
    files=("${CORPUS:-$repo/../shared/corpus}/2569067123_aca715a2ee_o.jpg" "$build/repeated-mcu.jpg")
fi
clang -O2 -I "$source_dir/include" -I "$source_dir" -o "$build/huffman_chains" "$here/decoder/huffman_chains.c" \
    "$source_dir"/entropy.c "$source_dir"/markers.c "$source_dir"/idct_reduced.c "$source_dir"/idct_reduced_avx2.c
"$build/huffman_chains" "${files[@]}"
