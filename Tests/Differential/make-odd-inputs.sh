#!/usr/bin/env bash
# Odd but ordinary inputs for the differential check against vipsthumbnail
# (Tests/VignetteCodecsTests/Differential): made here by the reference tools `make test` installs
# (libvips' vips, libjpeg-turbo's cjpeg and jpegtran, ExifTool, ffmpeg) from Fixtures/baseline.jpg,
# into the folder given. Nothing is downloaded. Each line makes one file; a tool that fails leaves
# that file out (the test counts what it got).
set -uo pipefail
out=${1:?usage: make-odd-inputs.sh OUTPUT_FOLDER}
here=$(cd "$(dirname "$0")/../.." && pwd)
src=$here/Fixtures/baseline.jpg
mkdir -p "$out"
cd "$out" || exit 1
t() { "$@" >/dev/null 2>&1 || echo "make-odd-inputs: failed: $*" >&2; }

# JPEG: coding variants libjpeg-turbo reads.
t vips copy "$src" base.ppm
t cjpeg -arithmetic -outfile arithmetic.jpg base.ppm
t cjpeg -progressive -outfile progressive-cjpeg.jpg base.ppm
t cjpeg -restart 1 -outfile restart-markers.jpg base.ppm
t cjpeg -sample 1x1 -quality 95 -outfile subsampling-444.jpg base.ppm
t cjpeg -sample 2x1 -outfile subsampling-422.jpg base.ppm
t cjpeg -grayscale -outfile grey.jpg base.ppm
t cjpeg -rgb -outfile rgb-components.jpg base.ppm
t jpegtran -progressive -optimize -outfile progressive-jpegtran.jpg "$src"
t vips icc_transform "$src" cmyk-no-profile.jpg[strip] cmyk
# A greyscale JPEG that carries an RGB profile (issue 53): ExifTool writes the profile in.
t vips colourspace "$src" grey-rgb-profile.jpg b-w
exiftool -icc_profile -b "$here/Fixtures/adobergb.jpg" > rgb.icc 2>/dev/null
t exiftool -q -overwrite_original "-icc_profile<=rgb.icc" grey-rgb-profile.jpg
rm -f rgb.icc base.ppm

# PNG: depths, palettes, interlacing, odd shapes.
t vips colourspace "$src" grey16.png grey16
t vips pngsave "$src" interlaced.png --interlace
t vips pngsave "$src" palette-dithered.png --palette --colours 16
t vips colourspace "$src" grey8.png b-w
t vips pngsave grey8.png onebit.png --bitdepth 1
t vips resize "$src" tall-strip.png 0.002 --vscale 20
t vips bandjoin_const "$src" rgba-opaque.png 255

# TIFF: compressions, tiles, pyramids, depths, pages.
t vips tiffsave "$src" lzw.tif --compression lzw --predictor horizontal
t vips tiffsave "$src" deflate.tif --compression deflate
t vips tiffsave "$src" jpeg-in-tiff.tif --compression jpeg
t vips tiffsave "$src" tiled.tif --tile --tile-width 64 --tile-height 64
t vips tiffsave "$src" pyramid.tif --tile --pyramid
t vips cast "$src" float.v float && t vips tiffsave float.v float.tif && rm -f float.v
t vips colourspace "$src" rgb16.tif rgb16
t vips tiffsave "$src" packbits.tif --compression none

# Other formats libvips writes: WebP, HEIF, JPEG XL, GIF, and the plain ones.
t vips webpsave "$src" near-lossless.webp --near-lossless
t vips heifsave "$src" heic-saved.heic --compression hevc
t vips heifsave "$src" avif-saved.avif --compression av1
t vips jxlsave "$src" saved.jxl
t vips gifsave "$src" still-saved.gif
t vips ppmsave "$src" portable.ppm
t vips ppmsave grey8.png portable.pgm
t vips radsave "$src" radiance.hdr
t vips csvsave grey8.png matrix.csv
t vips vipssave "$src" native.v
rm -f grey8.png

# What ffmpeg's image encoders write: BMP and its relatives (read by libvips only through ImageMagick).
t ffmpeg -loglevel error -y -i "$src" ffmpeg.bmp
t ffmpeg -loglevel error -y -i "$src" -pix_fmt pal8 ffmpeg-pal8.bmp
t ffmpeg -loglevel error -y -i "$src" ffmpeg.tga
t ffmpeg -loglevel error -y -i "$src" ffmpeg.sgi
t ffmpeg -loglevel error -y -i "$src" -vf scale=64:48 ffmpeg.ico

# Cut short: the first two thirds of a baseline JPEG and of a PNG.
head -c $(( $(stat -c %s "$src") * 2 / 3 )) "$src" > cut-two-thirds.jpg
t vips pngsave "$src" whole.png && head -c $(( $(stat -c %s whole.png) * 2 / 3 )) whole.png > cut-two-thirds.png && rm -f whole.png
exit 0
