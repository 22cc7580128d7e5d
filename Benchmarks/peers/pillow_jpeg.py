"""Pillow on sharp's JPEG task: draft (libjpeg DCT scaling) then thumbnail with LANCZOS inside
720x588 (or --width x --height), saved as JPEG quality 80. With --format webp: libwebp, lossy, method 4 (Pillow's default);
with --format avif: libavif with aom (Pillow 11.2 and later), 4:2:0, --speed."""
from io import BytesIO

import PIL
from PIL import Image

from benchloop import run


def operation(data, args):
    box = (args.width or 720, args.height or 588)
    im = Image.open(BytesIO(data))
    im.draft("RGB", box)
    im.thumbnail(box, Image.LANCZOS)
    out = BytesIO()
    if args.format == "webp":
        im.save(out, "WEBP", quality=args.quality, method=4)
    elif args.format == "avif":
        im.save(out, "AVIF", quality=args.quality, speed=args.speed, subsampling="4:2:0")
    else:
        im.save(out, "JPEG", quality=args.quality)
    return out.getvalue()


if __name__ == "__main__":
    run("Pillow", operation, {"version": PIL.__version__})
