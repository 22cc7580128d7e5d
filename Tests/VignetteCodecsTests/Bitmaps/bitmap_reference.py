"""Pillow's decode of BMP and ICO files, the reference the BMP/ICO decoder tests compare with.

    bitmap_reference.py OUT FILE[@WxH]...

Writes OUT/<n>.png (RGBA) for the n-th FILE (an ICO's entry of size WxH when given) and prints one
JSON object a line: {"file", "mode" (Pillow's mode before conversion), "png"} or {"file", "error"}.
Run by the Python of .venv-test (Scripts/test-venv.sh).
"""
import json
import sys

from PIL import Image

out = sys.argv[1]
for index, argument in enumerate(sys.argv[2:]):
    path, _, size = argument.partition("@")
    try:
        with Image.open(path) as image:
            if size:
                width, height = (int(side) for side in size.split("x"))
                image = image.ico.getimage((width, height))
            mode = image.mode
            image.load()
            png = f"{out}/{index}.png"
            image.convert("RGBA").save(png)
            print(json.dumps({"file": argument, "mode": mode, "png": png}))
    except Exception as error:  # noqa: BLE001 - every refusal is reported, not raised
        print(json.dumps({"file": argument, "error": f"{type(error).__name__}: {error}"}))
