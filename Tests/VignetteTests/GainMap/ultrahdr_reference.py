#!/usr/bin/env python3
"""Ultra HDR reference for the gain-map tests, written from the Ultra HDR Image Format
specification (v1.1) and independent of Vignette's code.

  ultrahdr_reference.py make DIR              writes gain-map JPEGs (every EXIF orientation, gain maps
                                              at 1/2 and 1/4) to DIR and prints their names as JSON
  ultrahdr_reference.py psnr CASES.json       for each case {source, result, crop?: [x, y, w, h],
                                              rotate?: 90|180|270 clockwise, flip?: vertical, flop?:
                                              horizontal}: HDR reconstructed from the source (oriented,
                                              cropped, turned and mirrored in that order, resized
                                              to the result's size in linear light) against HDR
                                              reconstructed from the result; prints the PSNRs in dB

HDR is reconstructed at the full boost (weight 1, a display whose boost reaches HDRCapacityMax):
  recovery = gain ** (1 / Gamma);  log_boost = GainMapMin * (1 - recovery) + GainMapMax * recovery
  HDR = (SDR_linear + OffsetSDR) * 2 ** log_boost - OffsetHDR
with SDR_linear the sRGB-decoded primary and the gain map scaled bilinearly to the primary's size.
"""
import io
import json
import re
import struct
import sys

import numpy as np
from PIL import Image


# --- JPEG and MPF reading -------------------------------------------------------------------

def segments(data):
    """(marker, payload offset, payload bytes) of a JPEG header up to SOS."""
    assert data[:2] == b"\xff\xd8", "not a JPEG"
    out, i = [], 2
    while i + 4 <= len(data):
        assert data[i] == 0xFF, "no marker at %d" % i
        marker = data[i + 1]
        length = struct.unpack(">H", data[i + 2:i + 4])[0]
        out.append((marker, i + 4, data[i + 4:i + 2 + length]))
        if marker == 0xDA:
            break
        i += 2 + length
    return out


def mpf_images(data):
    """The byte ranges of the images an MPF index lists, the primary first."""
    for marker, offset, payload in segments(data):
        if marker == 0xE2 and payload.startswith(b"MPF\0"):
            tiff = payload[4:]
            order = "<" if tiff[:2] == b"II" else ">"
            base = offset + 4
            ifd = struct.unpack(order + "I", tiff[4:8])[0]
            count = struct.unpack(order + "H", tiff[ifd:ifd + 2])[0]
            for n in range(count):
                tag, typ, items, value = struct.unpack(order + "HHII", tiff[ifd + 2 + 12 * n:ifd + 14 + 12 * n])
                if tag == 0xB002:
                    ranges = []
                    for e in range(items // 16):
                        _, size, start, _, _ = struct.unpack(order + "IIIHH", tiff[value + 16 * e:value + 16 * e + 16])
                        ranges.append((0, size) if e == 0 else (base + start, size))
                    return ranges
    raise ValueError("no MPF index")


def hdrgm(data):
    """The hdrgm values of a JPEG's XMP, as floats (per channel when a sequence)."""
    for marker, _, payload in segments(data):
        if marker == 0xE1 and payload.startswith(b"http://ns.adobe.com/xap/1.0/\0"):
            text = payload[29:].decode("utf-8")
            values = {k: v for k, v in re.findall(r'hdrgm:(\w+)="([^"]*)"', text)}
            for k, body in re.findall(r"<hdrgm:(\w+)>(.*?)</hdrgm:\1>", text, re.S):
                items = re.findall(r"<rdf:li>([^<]*)</rdf:li>", body)
                values[k] = items if items else body.strip()
            return values
    return {}


def number(values, name, default):
    v = values.get(name)
    if v is None:
        return np.array([default], dtype=np.float64)
    if isinstance(v, list):
        return np.array([float(x) for x in v], dtype=np.float64)
    return np.array([float(v)], dtype=np.float64)


def exif_orientation(data):
    image = Image.open(io.BytesIO(data))
    return image.getexif().get(0x0112, 1)


def srgb_to_linear(v):
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def resized(plane, width, height):
    """One float plane resized with Pillow's Lanczos (float mode)."""
    return np.asarray(Image.fromarray(plane.astype(np.float32), mode="F").resize((width, height), Image.LANCZOS), dtype=np.float64)


def resized_rgb(rgb, width, height, resample=Image.LANCZOS):
    return np.stack([resized(rgb[..., c], width, height) for c in range(rgb.shape[2])], axis=-1)


def reconstruct(data):
    """The HDR rendition (linear light, SDR white 1) of an Ultra HDR JPEG, as stored (not oriented)."""
    images = mpf_images(data)
    start, size = images[1]
    gain_jpeg = data[start:start + size]
    meta = hdrgm(gain_jpeg)
    primary = np.asarray(Image.open(io.BytesIO(data)).convert("RGB"), dtype=np.float64) / 255
    gain_image = Image.open(io.BytesIO(gain_jpeg))
    gain = np.asarray(gain_image.convert("RGB" if gain_image.mode != "L" else "L"), dtype=np.float64) / 255
    height, width = primary.shape[:2]
    if gain.ndim == 2:
        gain = resized_bilinear(gain, width, height)[..., None]
    else:
        gain = np.stack([resized_bilinear(gain[..., c], width, height) for c in range(3)], axis=-1)
    lo, hi = number(meta, "GainMapMin", 0), number(meta, "GainMapMax", 1)
    gamma = number(meta, "Gamma", 1)
    off_sdr, off_hdr = number(meta, "OffsetSDR", 1 / 64), number(meta, "OffsetHDR", 1 / 64)
    recovery = np.clip(gain, 0, 1) ** (1 / gamma)
    log_boost = lo * (1 - recovery) + hi * recovery
    return (srgb_to_linear(primary) + off_sdr) * np.exp2(log_boost) - off_hdr


def resized_bilinear(plane, width, height):
    return np.asarray(Image.fromarray(plane.astype(np.float32), mode="F").resize((width, height), Image.BILINEAR), dtype=np.float64)


def oriented(a, orientation):
    """The EXIF orientation applied: what a viewer shows."""
    return {
        1: lambda x: x,
        2: np.fliplr,
        3: lambda x: np.rot90(x, 2),
        4: np.flipud,
        5: lambda x: np.fliplr(np.rot90(x, -1)),
        6: lambda x: np.rot90(x, -1),
        7: lambda x: np.flipud(np.rot90(x, -1)),
        8: lambda x: np.rot90(x, 1),
    }[orientation](a)


def psnr(case):
    source = open(case["source"], "rb").read()
    result = open(case["result"], "rb").read()
    reference = oriented(reconstruct(source), exif_orientation(source))
    if case.get("crop"):
        x, y, w, h = case["crop"]
        reference = reference[y:y + h, x:x + w]
    reference = np.rot90(reference, -(case.get("rotate", 0) // 90))
    if case.get("flip"):
        reference = np.flipud(reference)
    if case.get("flop"):
        reference = np.fliplr(reference)
    made = reconstruct(result)
    height, width = made.shape[:2]
    reference = resized_rgb(np.ascontiguousarray(reference), width, height)
    mse = float(np.mean((reference - made) ** 2))
    peak = float(reference.max())
    gain_size = Image.open(io.BytesIO(result[mpf_images(result)[1][0]:])).size
    return {"psnr": 10 * np.log10(peak * peak / mse) if mse > 0 else 99.0, "peak": peak, "gainMap": list(gain_size),
            "result": [width, height]}


# --- Making gain-map JPEGs ----------------------------------------------------------------

XMP_PRIMARY = """<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description xmlns:Container="http://ns.google.com/photos/1.0/container/"
    xmlns:Item="http://ns.google.com/photos/1.0/container/item/"
    xmlns:hdrgm="http://ns.adobe.com/hdr-gain-map/1.0/" hdrgm:Version="1.0">
   <Container:Directory>
    <rdf:Seq>
     <rdf:li rdf:parseType="Resource"><Container:Item Item:Semantic="Primary" Item:Mime="image/jpeg"/></rdf:li>
     <rdf:li rdf:parseType="Resource"><Container:Item Item:Semantic="GainMap" Item:Mime="image/jpeg" Item:Length="%d"/></rdf:li>
    </rdf:Seq>
   </Container:Directory>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>"""

XMP_GAIN_MAP = """<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description xmlns:hdrgm="http://ns.adobe.com/hdr-gain-map/1.0/" hdrgm:Version="1.0"
    hdrgm:GainMapMin="-0.5" hdrgm:GainMapMax="3" hdrgm:Gamma="1.2" hdrgm:OffsetSDR="0.015625"
    hdrgm:OffsetHDR="0.015625" hdrgm:HDRCapacityMin="0" hdrgm:HDRCapacityMax="3" hdrgm:BaseRenditionIsHDR="False"/>
 </rdf:RDF>
</x:xmpmeta>"""


def app(marker, payload):
    return bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload


def after_leading(jpeg, inserted):
    """`inserted` placed after SOI and the JFIF/EXIF segments."""
    i = 2
    for marker, offset, payload in segments(jpeg):
        if marker == 0xE0 or (marker == 0xE1 and payload.startswith(b"Exif")):
            i = offset + len(payload)
        else:
            break
    return jpeg[:i] + inserted + jpeg[i:]


def mpf(primary_size, gain_size, gain_offset):
    entries = struct.pack(">IIIHH", 0x030000, primary_size, 0, 0, 0) + struct.pack(">IIIHH", 0, gain_size, gain_offset, 0, 0)
    ifd = struct.pack(">H", 3) + struct.pack(">HHI4s", 0xB000, 7, 4, b"0100") + struct.pack(">HHII", 0xB001, 4, 1, 2)
    ifd += struct.pack(">HHII", 0xB002, 7, 32, 50) + struct.pack(">I", 0)
    return b"MPF\0" + b"MM\0*" + struct.pack(">I", 8) + ifd + entries


def make(width, height, ratio, orientation, rgb_gain=False):
    """A primary of gradients and shapes, a gain map from its brightness (smooth, brighter parts
    boosted), both written at quality 95 and assembled as Ultra HDR."""
    y, x = np.mgrid[0:height, 0:width].astype(np.float64)
    r = 0.5 + 0.5 * np.sin(x / width * 6.0)
    g = y / height
    b = 0.5 + 0.5 * np.cos((x + y) / (width + height) * 9.0)
    # A bright disc with a soft edge (a light source): gain maps are smooth, as phones make them.
    distance = np.sqrt((x - width * 0.3) ** 2 + (y - height * 0.6) ** 2) / (min(width, height) * 0.2)
    disc = np.clip((1.3 - distance) / 0.6, 0, 1)[..., None]
    rgb = np.stack([r, g, b], axis=-1) * (1 - disc) + np.array([0.95, 0.9, 0.8]) * disc
    primary = Image.fromarray((rgb * 255).round().astype(np.uint8), "RGB")
    exif = Image.Exif()
    exif[0x0112] = orientation
    buffer = io.BytesIO()
    primary.save(buffer, "JPEG", quality=95, exif=exif.tobytes())
    primary_jpeg = buffer.getvalue()
    gw, gh = max(1, width // ratio), max(1, height // ratio)
    luma = (0.2126 * r + 0.7152 * g + 0.0722 * b) * (1 - disc[..., 0]) + disc[..., 0]
    gain = np.clip(luma, 0, 1) ** 1.5
    plane = np.asarray(Image.fromarray((gain * 255).astype(np.float32), "F").resize((gw, gh), Image.BILINEAR))
    gain_image = Image.fromarray(np.clip(plane, 0, 255).round().astype(np.uint8), "L")
    if rgb_gain:
        gain_image = Image.merge("RGB", [gain_image, gain_image.point(lambda v: v * 0.9), gain_image])
    buffer = io.BytesIO()
    gain_image.save(buffer, "JPEG", quality=95)
    gain_jpeg = after_leading(buffer.getvalue(), app(0xE1, b"http://ns.adobe.com/xap/1.0/\0" + XMP_GAIN_MAP.encode()))
    xmp = app(0xE1, b"http://ns.adobe.com/xap/1.0/\0" + (XMP_PRIMARY % len(gain_jpeg)).encode())
    placeholder = app(0xE2, mpf(0, 0, 0))
    file = after_leading(primary_jpeg, xmp + placeholder)
    mpf_at = file.index(b"MPF\0")
    base = mpf_at + 4
    final_index = app(0xE2, mpf(len(file), len(gain_jpeg), len(file) - base))
    file = file.replace(placeholder, final_index)
    return file + gain_jpeg


def main():
    command = sys.argv[1]
    if command == "make":
        folder = sys.argv[2]
        names = []
        for ratio in (2, 4):
            for orientation in range(1, 9):
                name = "gain-map-o%d-r%d.jpg" % (orientation, ratio)
                open(folder + "/" + name, "wb").write(make(640, 424, ratio, orientation))
                names.append(name)
        name = "gain-map-rgb-r2.jpg"
        open(folder + "/" + name, "wb").write(make(512, 384, 2, 1, rgb_gain=True))
        names.append(name)
        print(json.dumps(names))
    elif command == "psnr":
        cases = json.load(open(sys.argv[2]))
        print(json.dumps([psnr(case) for case in cases]))
    else:
        raise SystemExit("unknown command " + command)


if __name__ == "__main__":
    main()
