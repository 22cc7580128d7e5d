"""Pillow decoding a file whole (`Image.open(...).load()`: BMP, an ICO's largest entry), the peer
of VignetteBench's `decode` in Benchmarks/bitmap-decode.sh, in the same loop (benchloop.py).
`--convert MODE` also converts to MODE (e.g. RGB: a palette BMP expanded to colours, as Vignette
decodes it)."""
import sys
from io import BytesIO

import PIL
from PIL import Image

from benchloop import run

convert = None
if "--convert" in sys.argv:
    at = sys.argv.index("--convert")
    convert = sys.argv[at + 1]
    del sys.argv[at:at + 2]


def operation(data, args):
    image = Image.open(BytesIO(data))
    image.load()
    if convert:
        image = image.convert(convert)
    # The loop reports the length of what it returns; the pixels stay unread.
    return b""


if __name__ == "__main__":
    run("Pillow", operation, {"version": PIL.__version__}, default_format="png")
