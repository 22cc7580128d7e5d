"""PSNR of each WebP and AVIF output in OUT against a reference resize (libvips Lanczos 3 of
the full decode of SOURCE), one JSON line per file.  Usage: psnr.py SOURCE OUT"""
import glob, json, math, os, sys
import pyvips
source, out = sys.argv[1:3]
full = pyvips.Image.new_from_file(source)
for path in sorted(glob.glob(os.path.join(out, "webp-*.webp")) + glob.glob(os.path.join(out, "avif-*.avif"))):
    image = pyvips.Image.new_from_file(path)
    image = image[:3] if image.bands > 3 else image
    reference = full.resize(image.width / full.width, vscale=image.height / full.height, kernel="lanczos3")
    reference = reference.crop(0, 0, image.width, image.height)
    diff = image.cast("float") - reference.cast("float")
    mse = (diff * diff).avg()
    print(json.dumps({"file": os.path.basename(path), "bytes": os.path.getsize(path),
                      "psnr": round(10 * math.log10(255 * 255 / mse), 2) if mse > 0 else None}))
