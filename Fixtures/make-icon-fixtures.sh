#!/usr/bin/env bash
# Makes Fixtures/icons/: ICO and CUR files the BMP/ICO decoder tests read, from the project's own
# fixtures (alpha.png, baseline.jpg), with the reference writers:
#   favicon-im.ico      ImageMagick, -define icon:auto-resize=16,32,48,256 (BMP entries with
#                       32-bit alpha and an AND mask; the 256 entry as PNG)
#   opaque-im.ico       ImageMagick, an opaque picture at 16,32,64
#   pillow.ico          Pillow, sizes 16,32,48,64,128 (PNG entries)
#   pillow-bmp.ico      Pillow, bitmap_format="bmp" (32-bit BMP entries)
#   palette4-im.ico     ImageMagick, 16 colours with alpha: a 4-bit BMP entry with its AND mask
#   palette8-im.ico     ImageMagick, 200 colours, opaque: an 8-bit BMP entry
#   cursor.cur          favicon-im.ico with the type field set to 2 (a cursor)
# Re-runnable; needs imagemagick (convert-im6.q16) and the Python of .venv-test (Scripts/test-venv.sh).
set -euo pipefail
FIX="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="$FIX/icons"
PY="${PYTHON:-$FIX/../.venv-test/bin/python}"
IM=convert-im6.q16
mkdir -p "$OUT"
"$IM" "$FIX/alpha.png" -define icon:auto-resize=16,32,48,256 "$OUT/favicon-im.ico"
"$IM" "$FIX/baseline.jpg" -define icon:auto-resize=16,32,64 "$OUT/opaque-im.ico"
"$IM" "$FIX/alpha.png" -resize 32x24 -colors 16 "$OUT/palette4-im.ico"
"$IM" "$FIX/baseline.jpg" -resize 40x30 -colors 200 "$OUT/palette8-im.ico"
"$PY" - "$FIX" "$OUT" <<'PY'
import sys
from PIL import Image
fix, out = sys.argv[1], sys.argv[2]
image = Image.open(f"{fix}/alpha.png").convert("RGBA")
sizes = [(16, 16), (32, 32), (48, 48), (64, 64), (128, 128)]
image.save(f"{out}/pillow.ico", sizes=sizes)
image.save(f"{out}/pillow-bmp.ico", sizes=sizes, bitmap_format="bmp")
data = bytearray(open(f"{out}/favicon-im.ico", "rb").read())
data[2] = 2
open(f"{out}/cursor.cur", "wb").write(bytes(data))
PY
ls -l "$OUT"
