"""Pillow on sharp's PNG task: thumbnail with LANCZOS inside 720x540 (Pillow premultiplies RGBA
itself while resizing), saved as PNG at zlib level 6."""
from io import BytesIO

import PIL
from PIL import Image

from benchloop import run


def operation(data, args):
    im = Image.open(BytesIO(data))
    im.thumbnail((720, 540), Image.LANCZOS)
    out = BytesIO()
    im.save(out, "PNG", compress_level=6)
    return out.getvalue()


if __name__ == "__main__":
    run("Pillow", operation, {"version": PIL.__version__}, default_format="png")
