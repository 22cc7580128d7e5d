"""Pillow on sharp's JPEG task: draft (libjpeg DCT scaling) then thumbnail with LANCZOS inside
720x588, saved as JPEG quality 80."""
from io import BytesIO

import PIL
from PIL import Image

from benchloop import run


def operation(data):
    im = Image.open(BytesIO(data))
    im.draft("RGB", (720, 588))
    im.thumbnail((720, 588), Image.LANCZOS)
    out = BytesIO()
    im.save(out, "JPEG", quality=80)
    return out.getvalue()


if __name__ == "__main__":
    run("Pillow", operation, {"version": PIL.__version__})
