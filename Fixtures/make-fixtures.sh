#!/usr/bin/env bash
# Regenerates every fixture image in this folder plus MANIFEST.tsv.
#
#   Fixtures/make-fixtures.sh
#
# All images are synthetic (ImageMagick plasma with a fixed seed plus a few
# drawn shapes); nothing is downloaded or copied. Re-runnable: outputs are
# overwritten, intermediates live in a temporary directory.
set -euo pipefail
export LC_ALL=C

FIX="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# --------------------------------------------------------------------------
# Tool check
# --------------------------------------------------------------------------
missing=0
need() { # tool debian-package
  if ! command -v "$1" >/dev/null 2>&1; then
    echo "error: '$1' not found -- install it with: apt-get install $2" >&2
    missing=1
  fi
}
need vips            libvips-tools
need vipsheader      libvips-tools
need convert-im6.q16 imagemagick       # NB: ImageMagick 6 is called by this name
need heif-enc        libheif-examples
need heif-info       libheif-examples
need cwebp           webp
need img2webp        webp
need exiftool        libimage-exiftool-perl
need python3         python3
[ "$missing" = 0 ] || exit 1

IM=convert-im6.q16
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
OUT="$TMP/out"            # everything is built here, then copied into $FIX
mkdir -p "$OUT"
# keep ImageMagick from writing time-stamps into PNG intermediates
IMPNG=(-define png:exclude-chunks=date,time)

# --------------------------------------------------------------------------
# Base images
# --------------------------------------------------------------------------
# base.png: 640x480 8-bit sRGB "photo-like" plasma, with asymmetric marks so
# that every rotation/flip has a distinct dHash:
#   dark block top-left, red disc right of centre, bright bar along bottom.
$IM -seed 4242 -size 640x480 plasma:steelblue-orange -blur 0x1 \
    -fill '#141414' -draw 'rectangle 24,24 223,183' \
    -fill '#c03020' -draw 'circle 500,200 560,200' \
    -fill '#f0f0f0' -draw 'rectangle 0,430 639,479' \
    -alpha off -depth 8 "${IMPNG[@]}" "PNG24:$TMP/base.png"

# small.png: the same picture at 320x240, used for the lossless formats
# (plasma compresses badly losslessly; this keeps Fixtures/ small).
vips resize "$TMP/base.png" "$TMP/small.png" 0.5

# alpha mask 320x240: horizontal gradient, opaque at the left edge,
# fully transparent at the right edge
$IM -size 240x320 gradient:white-black -rotate 270 -colorspace Gray -depth 8 \
    "${IMPNG[@]}" "$TMP/mask.png"
vips extract_band "$TMP/mask.png" "$TMP/mask1.v" 0
vips bandjoin "$TMP/small.png $TMP/mask1.v" "$TMP/small-rgba.v"
# same at 640x480 (for lossy WebP with alpha)
vips resize "$TMP/mask1.v" "$TMP/mask-big.v" 2
vips bandjoin "$TMP/base.png $TMP/mask-big.v" "$TMP/base-rgba.v"

# --------------------------------------------------------------------------
# JPEG (640x480)
# --------------------------------------------------------------------------
vips jpegsave "$TMP/base.png" "$OUT/baseline.jpg" --Q 85 --strip
vips jpegsave "$TMP/base.png" "$OUT/progressive.jpg" --Q 85 --strip --interlace

# orientation-N.jpg: pixels stored so that applying EXIF orientation N gives
# back the upright base. Stored transform = inverse of the display transform.
#   N  display transform        stored = base ...
#   1  none                     as is
#   2  mirror horizontally      flop
#   3  rotate 180               rotate 180
#   4  mirror vertically        flip
#   5  transpose                transpose            (480x640)
#   6  rotate 90 CW             rotate 90 CCW        (480x640)
#   7  transverse               transverse           (480x640)
#   8  rotate 90 CCW            rotate 90 CW         (480x640)
orient_op=("" "" "-flop" "-rotate 180" "-flip" "-transpose" "-rotate 270" "-transverse" "-rotate 90")
for n in 1 2 3 4 5 6 7 8; do
  # shellcheck disable=SC2086
  $IM "$TMP/base.png" ${orient_op[$n]} "${IMPNG[@]}" "PNG24:$TMP/o$n.png"
  vips jpegsave "$TMP/o$n.png" "$OUT/orientation-$n.jpg" --Q 85 --strip
  exiftool -q -overwrite_original -n "-Orientation=$n" "$OUT/orientation-$n.jpg"
done

# exif-thumbnail.jpg: 640x480 with a 160x120 EXIF (IFD1) thumbnail
vips resize "$TMP/base.png" "$TMP/thumb160.png" 0.25
vips jpegsave "$TMP/thumb160.png" "$TMP/thumb.jpg" --Q 75 --strip
vips jpegsave "$TMP/base.png" "$OUT/exif-thumbnail.jpg" --Q 85 --strip
exiftool -q -overwrite_original "-ThumbnailImage<=$TMP/thumb.jpg" "$OUT/exif-thumbnail.jpg"

# cmyk.jpg: 4-band CMYK JPEG (Adobe-style, as written by ImageMagick)
$IM "$TMP/base.png" -colorspace CMYK -quality 85 -strip "$OUT/cmyk.jpg"

# --------------------------------------------------------------------------
# PNG (320x240)
# --------------------------------------------------------------------------
vips pngsave "$TMP/small.png" "$OUT/rgb8.png" --compression 9 --strip
vips colourspace "$TMP/small.png" "$TMP/small16.v" rgb16
vips pngsave "$TMP/small16.v" "$OUT/rgb16.png" --compression 9 --strip
vips pngsave "$TMP/small.png" "$OUT/palette.png" --compression 9 --strip --palette --bitdepth 8
vips pngsave "$TMP/small-rgba.v" "$OUT/alpha.png" --compression 9 --strip
vips colourspace "$TMP/small-rgba.v" "$TMP/grey-alpha.v" b-w
vips pngsave "$TMP/grey-alpha.v" "$OUT/grey-alpha.png" --compression 9 --strip

# --------------------------------------------------------------------------
# WebP
# --------------------------------------------------------------------------
cwebp -quiet -q 75 -m 6 "$TMP/base.png" -o "$OUT/lossy.webp"
cwebp -quiet -lossless -z 9 "$TMP/small.png" -o "$OUT/lossless.webp"
vips pngsave "$TMP/base-rgba.v" "$TMP/base-rgba.png" --compression 1
cwebp -quiet -q 75 -alpha_q 100 -m 6 "$TMP/base-rgba.png" -o "$OUT/alpha.webp"

# animation frames: 160x120, a white square moving left to right
vips resize "$TMP/small.png" "$TMP/tiny.png" 0.5
frames=()
for i in 0 1 2 3; do
  x=$((10 + 40 * i))
  $IM "$TMP/tiny.png" -fill white -draw "rectangle $x,55 $((x + 19)),74" \
      "${IMPNG[@]}" "PNG24:$TMP/frame$i.png"
  frames+=("$TMP/frame$i.png")
done
img2webp -loop 0 -lossy -q 70 -m 6 -d 250 "${frames[@]}" -o "$OUT/animated.webp" >/dev/null 2>&1

# --------------------------------------------------------------------------
# HEIF / AVIF
# --------------------------------------------------------------------------
vips resize "$TMP/base.png" "$TMP/base1280.png" 2
heif-enc -q 50 -t 320 -o "$OUT/thumbnail.heic" "$TMP/base1280.png" >/dev/null
heif-enc -A -q 50 -o "$OUT/avif.avif" "$TMP/base.png" >/dev/null

# --------------------------------------------------------------------------
# GIF / TIFF
# --------------------------------------------------------------------------
$IM "$TMP/small.png" -strip "$OUT/still.gif"
$IM -delay 25 -loop 0 "${frames[@]}" -strip "$OUT/animated.gif"
# animations with a loop count of 3 and a different delay for each frame (100-500 ms, GIF
# delays are in centiseconds): five 160x120 frames, a dark square moving down and to the right
# over a background whose tint changes, so that every frame has its own dHash
loop3=()
webp_args=()
for i in 0 1 2 3 4; do
  x=$((8 + 30 * i)); y=$((6 + 20 * i))
  $IM "$TMP/tiny.png" -modulate 100,100,$((100 + 40 * i)) \
      -fill '#101010' -draw "rectangle $x,$y $((x + 29)),$((y + 29))" \
      "${IMPNG[@]}" "PNG24:$TMP/loop3-$i.png"
  loop3+=(-delay $((10 * (i + 1))) "$TMP/loop3-$i.png")
  webp_args+=(-d $((100 * (i + 1))) "$TMP/loop3-$i.png")
done
$IM -loop 3 "${loop3[@]}" -strip "$OUT/animated-loop3.gif"
img2webp -loop 3 -lossy -q 80 -m 6 "${webp_args[@]}" -o "$OUT/animated-loop3.webp" >/dev/null 2>&1
vips tiffsave "$TMP/small.png" "$OUT/rgb.tiff" --compression deflate --predictor horizontal --strip
# rgb.jxl, cut-short.jxl, hostile-huge.jxl (JPEG XL: a photo, cut short, a lying size header)
"$FIX/make-jxl-fixtures.sh" "$OUT/rgb.tiff" "$OUT"

# --------------------------------------------------------------------------
# Colour: images whose pixels need their ICC profile (or the CMYK one assumed without it)
# --------------------------------------------------------------------------
# Profiles: colord-data's Adobe RGB (1998) and ProPhoto RGB, libvips' built-in Display P3 and CMYK.
ICC=/usr/share/color/icc/colord
[ -f "$ICC/AdobeRGB1998.icc" ] || { echo "error: $ICC/AdobeRGB1998.icc not found -- apt-get install colord-data" >&2; exit 1; }
vips resize "$TMP/small-rgba.v" "$TMP/tiny-rgba.v" 0.5
# adobergb.jpg: 320x240 JPEG in Adobe RGB (1998), profile embedded
vips icc_transform "$TMP/small.png" "$TMP/adobe.v" "$ICC/AdobeRGB1998.icc" --input-profile srgb
vips jpegsave "$TMP/adobe.v" "$OUT/adobergb.jpg" --Q 90
# srgb-profile.jpg: 640x480 JPEG with libvips' built-in sRGB profile embedded: converting through
# it changes nothing, so the planar JPEG route takes it when the profile is not kept
vips icc_transform "$TMP/base.png" "$TMP/srgb.v" srgb --input-profile srgb
vips jpegsave "$TMP/srgb.v" "$OUT/srgb-profile.jpg" --Q 90
# p3-alpha.png: 160x120 RGBA PNG in Display P3, profile embedded
vips icc_transform "$TMP/tiny-rgba.v" "$TMP/p3a.v" p3 --input-profile srgb
vips pngsave "$TMP/p3a.v" "$OUT/p3-alpha.png" --compression 9
# prophoto16.png: 160x120 16-bit RGB PNG in ProPhoto RGB, profile embedded
vips resize "$TMP/small.png" "$TMP/tiny-rgb.v" 0.5
vips icc_transform "$TMP/tiny-rgb.v" "$TMP/pro16.v" "$ICC/ProPhotoRGB.icc" --input-profile srgb --depth 16
vips pngsave "$TMP/pro16.v" "$OUT/prophoto16.png" --compression 9
# cmyk-alpha.tif: 160x120 CMYK + alpha TIFF with no profile (libvips' CMYK profile is assumed)
vips icc_transform "$TMP/tiny-rgba.v" "$TMP/cmyka.v" cmyk --input-profile srgb
vips tiffsave "$TMP/cmyka.v" "$OUT/cmyk-alpha.tif" --compression deflate --strip

# --------------------------------------------------------------------------
# Broken / unsupported
# --------------------------------------------------------------------------
python3 - "$OUT" <<'PY'
import os, random, struct, sys, zlib
out = sys.argv[1]

def head(src, dst, frac=0.40):
    data = open(os.path.join(out, src), "rb").read()
    open(os.path.join(out, dst), "wb").write(data[: int(len(data) * frac)])

# first 40% of a valid file
head("baseline.jpg", "cut-short.jpg")
head("rgb8.png", "cut-short.png")

rng = random.Random(1234)
def garbage(n, no_ff=False):
    top = 0xFE if no_ff else 0xFF
    return bytes(rng.randint(0, top) for _ in range(n))

# SOI + a valid JFIF APP0 segment, then garbage (no 0xFF, so no markers)
jfif = (b"\xff\xd8"
        + b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00"
        + b"\x01\x01" + b"\x00" + struct.pack(">HH", 1, 1) + b"\x00\x00")
open(os.path.join(out, "corrupt.jpg"), "wb").write(jfif + garbage(2048, no_ff=True))

# PNG signature, then garbage
open(os.path.join(out, "corrupt.png"), "wb").write(b"\x89PNG\r\n\x1a\n" + garbage(2048))

# not an image at all
open(os.path.join(out, "not-an-image.txt"), "w").write(
    "This is a plain text file, not an image.\n"
    "Vignette must reject it with an unsupported-format error.\n")
open(os.path.join(out, "unknown.bin"), "wb").write(garbage(1024))

# zero bytes
open(os.path.join(out, "empty.jpg"), "wb").close()

# huge-declared.png: valid signature/IHDR/IDAT/IEND with correct CRCs; the
# IHDR declares 100000x100000 8-bit RGB, the IDAT only holds one (zero) row.
def chunk(typ, data):
    return (struct.pack(">I", len(data)) + typ + data
            + struct.pack(">I", zlib.crc32(typ + data) & 0xFFFFFFFF))
W = H = 100000
ihdr = struct.pack(">IIBBBBB", W, H, 8, 2, 0, 0, 0)
row = b"\x00" + b"\x00" * (W * 3)           # filter byte + one black row
idat = zlib.compress(row, 9)
png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat)
       + chunk(b"IEND", b""))
open(os.path.join(out, "huge-declared.png"), "wb").write(png)
PY

# --------------------------------------------------------------------------
# Hostile input: extreme geometry and headers that lie about what decoding costs
# --------------------------------------------------------------------------
# line-1000x1.jpg: a 191-byte JPEG whose height is shorter than any DCT shrink
# (libvips 8.14 aborts the process on jpegload shrink=8 of it).
$IM -size 1000x1 xc:gray -strip "$OUT/line-1000x1.jpg"
# A 17000x17000 AV1 stream (flat grey, 4 KB) for hostile-coded-size.avif below.
vips black "$TMP/b17.v" 17000 17000 --bands 3
vips pngsave "$TMP/b17.v" "$TMP/b17.png" --compression 1
rm -f "$TMP/b17.v"
heif-enc -A -q 10 -p speed=9 "$TMP/b17.png" -o "$TMP/b17.avif" >/dev/null
python3 - "$OUT" "$TMP/b17.avif" <<'PY'
import os, struct, sys, zlib
out, avif = sys.argv[1], sys.argv[2]

def patch_sof(data, width, height):
    i = 2
    while i < len(data):
        marker, length = data[i + 1], struct.unpack(">H", data[i + 2:i + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2):
            return data[:i + 5] + struct.pack(">HH", height, width) + data[i + 9:]
        i += 2 + length
    raise SystemExit("no SOF marker")

def read(name):
    return open(os.path.join(out, name), "rb").read()

def write(name, data):
    open(os.path.join(out, name), "wb").write(data)

# Progressive JPEG declaring 49748x32767 (1.6 gigapixels): libjpeg would keep the
# coefficients of the whole image (4.9 GB) even at 1/8 scale.
write("hostile-progressive.jpg", patch_sof(read("progressive.jpg"), 49748, 32767))
# Progressive JPEG declaring 15000x15000: within the work budget, but its
# whole-image coefficient buffers need 675 MB.
write("hostile-coefficients.jpg", patch_sof(read("progressive.jpg"), 15000, 15000))
# Baseline JPEG declaring 65500x65500 with almost all of its data missing.
write("hostile-missing-data.jpg", patch_sof(read("baseline.jpg"), 65500, 65500))

# 16-bit RGB PNG declaring 8388607x8 (67 megapixels, but lines of 50 MB); the
# IDAT holds one row.
def chunk(typ, data):
    return struct.pack(">I", len(data)) + typ + data + struct.pack(">I", zlib.crc32(typ + data) & 0xFFFFFFFF)
W, H = 8388607, 8
row = b"\x00" + b"\x80" * (W * 6)
write("hostile-wide16.png", b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 16, 2, 0, 0, 0))
      + chunk(b"IDAT", zlib.compress(row, 9)) + chunk(b"IEND", b""))

# Animated WebP whose canvas is 16383x16383 around 160x120 frames.
webp = bytearray(read("animated.webp"))
assert webp[12:16] == b"VP8X"
webp[24:27] = (16383 - 1).to_bytes(3, "little")
webp[27:30] = (16383 - 1).to_bytes(3, "little")
write("hostile-canvas.webp", bytes(webp))

# AVIF whose ispe says 4096x15 around a 17000x17000 AV1 stream.
data = bytearray(open(avif, "rb").read())
i = data.find(b"ispe")
assert i > 0 and struct.unpack(">II", data[i + 8:i + 16]) == (17000, 17000)
data[i + 8:i + 16] = struct.pack(">II", 4096, 15)
write("hostile-coded-size.avif", bytes(data))
PY

# --------------------------------------------------------------------------
# Self-checks
# --------------------------------------------------------------------------
fail() { echo "check failed: $*" >&2; exit 1; }

# dHash (9x8 grey) of a file, as 16 hex digits
dhash() {
  $IM "$1" -colorspace Gray -resize '9x8!' -depth 8 pgm:- | python3 -c '
import sys
px = sys.stdin.buffer.read()[-72:]      # P5 header, then 9x8 bytes
bits = 0
for y in range(8):
    for x in range(8):
        bits = (bits << 1) | (px[y * 9 + x] > px[y * 9 + x + 1])
print("%016x" % bits)'
}
hamming() { python3 -c "print(bin(int('$1',16) ^ int('$2',16)).count('1'))"; }

# every orientation-N.jpg, once auto-rotated, looks like the upright base;
# their stored pixels are all different from one another
ref=$(dhash "$OUT/baseline.jpg")
declare -A seen=()
for n in 1 2 3 4 5 6 7 8; do
  f="$OUT/orientation-$n.jpg"
  got=$(vipsheader -f orientation "$f")
  [ "$got" = "$n" ] || fail "$f orientation=$got"
  vips autorot "$f" "$TMP/upright$n.png"
  d=$(hamming "$ref" "$(dhash "$TMP/upright$n.png")")
  [ "$d" -le 4 ] || fail "$f upright dHash differs from baseline by $d bits"
  raw=$(dhash "$f")
  [ -z "${seen[$raw]:-}" ] || fail "$f stored dHash equals ${seen[$raw]}"
  seen[$raw]=$f
done
vipsheader -a "$OUT/exif-thumbnail.jpg" | grep -q '^jpeg-thumbnail-data:' \
  || fail "exif-thumbnail.jpg has no jpeg-thumbnail-data"
[ "$(vipsheader -f width "$OUT/huge-declared.png")x$(vipsheader -f height "$OUT/huge-declared.png")" = 100000x100000 ] \
  || fail "huge-declared.png header is not 100000x100000"
# broken files must not decode (cut-short.jpg only with fail_on=truncated:
# libvips' default fail_on=none decodes it with a warning)
for f in cut-short.jpg cut-short.png corrupt.jpg corrupt.png not-an-image.txt unknown.bin empty.jpg; do
  if vips copy "$OUT/$f[fail_on=truncated]" "$TMP/x.png" 2>/dev/null; then
    fail "$f decodes even with fail_on=truncated"
  fi
done

# --------------------------------------------------------------------------
# Manifest
# --------------------------------------------------------------------------
hdr() { vipsheader -f "$2" "$1" 2>/dev/null; }

thumb_of() { # file format -> WxH or -
  local f=$1 fmt=$2 t
  case $fmt in
    heif)
      t=$(heif-info "$f" 2>/dev/null | sed -n 's/^ *thumbnail: *\([0-9]*x[0-9]*\).*/\1/p' | head -n1)
      echo "${t:--}" ;;
    jpeg)
      if exiftool -b -ThumbnailImage "$f" > "$TMP/t.bin" 2>/dev/null && [ -s "$TMP/t.bin" ]; then
        echo "$(vipsheader -f width "$TMP/t.bin")x$(vipsheader -f height "$TMP/t.bin")"
      else
        echo -
      fi ;;
    *) echo - ;;
  esac
}

row() { # file expect
  local f=$1 expect=$2 p="$OUT/$1"
  local loader fmt w h b interp alpha orient pages thumb
  if loader=$(hdr "$p" vips-loader); then
    fmt=${loader%_source}; fmt=${fmt%load}
    w=$(hdr "$p" width); h=$(hdr "$p" height); b=$(hdr "$p" bands)
    interp=$(hdr "$p" interpretation)
    alpha=0
    case $b in
      2|5) alpha=1 ;;
      4) case $interp in *[Cc][Mm][Yy][Kk]*) ;; *) alpha=1 ;; esac ;;
    esac
    orient=$(hdr "$p" orientation || echo 1)
    pages=$(hdr "$p" n-pages || echo 1)
    thumb=$(thumb_of "$p" "$fmt")
  else
    fmt=- w=- h=- b=- alpha=- orient=- pages=- thumb=-
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
    "$f" "$fmt" "$w" "$h" "$b" "$alpha" "$orient" "$pages" "$thumb" "$expect"
}

{
  printf 'file\tformat\twidth\theight\tbands\talpha\torientation\tpages\tthumbnail\texpect\n'
  for f in baseline.jpg progressive.jpg \
           orientation-1.jpg orientation-2.jpg orientation-3.jpg orientation-4.jpg \
           orientation-5.jpg orientation-6.jpg orientation-7.jpg orientation-8.jpg \
           exif-thumbnail.jpg cmyk.jpg \
           rgb8.png rgb16.png palette.png alpha.png grey-alpha.png \
           lossy.webp lossless.webp alpha.webp animated.webp \
           thumbnail.heic avif.avif \
           still.gif animated.gif animated-loop3.gif animated-loop3.webp rgb.tiff \
           adobergb.jpg srgb-profile.jpg p3-alpha.png prophoto16.png cmyk-alpha.tif rgb.jxl; do
    row "$f" ok
  done
  for f in cut-short.jpg cut-short.png corrupt.jpg corrupt.png \
           not-an-image.txt unknown.bin empty.jpg cut-short.jxl; do
    row "$f" error
  done
  row huge-declared.png limit
  row line-1000x1.jpg ok
  for f in hostile-progressive.jpg hostile-coefficients.jpg hostile-missing-data.jpg \
           hostile-wide16.png hostile-canvas.webp hostile-coded-size.avif hostile-huge.jxl; do
    row "$f" limit
  done
} > "$OUT/MANIFEST.tsv"

# --------------------------------------------------------------------------
# Install into Fixtures/
# --------------------------------------------------------------------------
cp -f "$OUT"/* "$FIX"/
echo "wrote $(ls "$OUT" | wc -l) files to $FIX"
