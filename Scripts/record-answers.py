#!/usr/bin/env python3
"""Records what `vignette serve` answers for a fixed set of URLs, one line each: the URL, the
status, the ETag, the Content-Type, Vary, Content-Disposition and the body's SHA-256.

Two recordings of two builds compared with `diff` show whether a change kept the server's answers
byte for byte (every option family of imgproxy's URL API, /info, /placeholder, signatures, 304s,
failures). The URLs are signed with a key and salt of the script's own, as imgproxy's URL signers
sign them (HMAC-SHA256 of salt + path, URL-safe base64 without padding).

    Scripts/record-answers.py .build/debug/vignette > answers.tsv
"""
import base64
import hashlib
import hmac
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

KEY = bytes.fromhex("943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881")
SALT = bytes.fromhex("520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5")
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures")

# (options, source file, extension or None, Accept header or None)
IMAGES = [
    ("rs:fit:256:256", "baseline.jpg", None, None),
    ("rs:fit:256:256", "baseline.jpg", None, "image/avif,image/webp,*/*"),
    ("rs:fit:256:256", "baseline.jpg", None, "image/webp,*/*"),
    ("rs:fill:300:200/g:sm/q:75", "baseline.jpg", "webp", None),
    ("rs:fill:300:200/g:no", "baseline.jpg", "jpg", None),
    ("rs:fill-down:400:400", "rgb8.png", "png", None),
    ("rs:force:120:80", "baseline.jpg", "jpg", None),
    ("rs:auto:200:100", "orientation-6.jpg", "jpg", None),
    ("s:150:150/el:1", "palette.png", "png", None),
    ("w:180", "progressive.jpg", "jpg", None),
    ("h:90/dpr:2", "baseline.jpg", "jpg", None),
    ("mw:400/mh:300/rs:fit:100:100", "baseline.jpg", "jpg", None),
    ("z:0.25", "baseline.jpg", "jpg", None),
    ("rs:fit:500:500/ex:1:ce", "alpha.png", "png", None),
    ("exar:1/rs:fill:300:100", "baseline.jpg", "jpg", None),
    ("g:fp:0.2:0.8/rs:fill:100:100", "baseline.jpg", "jpg", None),
    ("g:nowe:10:10/rs:fill:120:60", "baseline.jpg", "jpg", None),
    ("c:200:200:ce/rs:fit:100:100", "baseline.jpg", "jpg", None),
    ("t:10/rs:fit:100:100", "grey-alpha.png", "png", None),
    ("pd:10:20/bg:ff0000/rs:fit:100:100", "baseline.jpg", "jpg", None),
    ("ar:1/rs:fit:100:100", "orientation-3.jpg", "jpg", None),
    ("ar:0/rs:fit:100:100", "orientation-3.jpg", "jpg", None),
    ("rot:90/rs:fit:100:100", "baseline.jpg", "jpg", None),
    ("fl:1:0/rs:fit:100:100", "baseline.jpg", "jpg", None),
    ("bg:255:255:255/rs:fit:100:100", "alpha.png", "jpg", None),
    ("bl:3/rs:fit:100:100", "baseline.jpg", "jpg", None),
    ("sh:1.5/rs:fit:100:100", "baseline.jpg", "jpg", None),
    ("pix:8/rs:fit:100:100", "baseline.jpg", "jpg", None),
    ("wm:0.5:soea:4:4:0.3/rs:fit:300:300", "baseline.jpg", "jpg", None),
    ("wm:0.4:re/rs:fit:300:300", "baseline.jpg", "png", None),
    ("sm:0/rs:fit:100:100", "baseline.jpg", "jpg", None),
    ("kcr:1/rs:fit:100:100", "baseline.jpg", "jpg", None),
    ("scp:0/rs:fit:100:100", "adobergb.jpg", "jpg", None),
    ("rs:fit:100:100", "adobergb.jpg", "jpg", None),
    ("rs:fit:100:100", "cmyk.jpg", "jpg", None),
    ("rs:fit:100:100", "prophoto16.png", "png", None),
    ("q:30/rs:fit:200:200", "baseline.jpg", "jpg", None),
    ("fq:webp:40:avif:30/rs:fit:200:200", "baseline.jpg", "webp", None),
    ("mb:3000/rs:fit:300:300", "baseline.jpg", "jpg", None),
    ("rs:fit:200:200", "baseline.jpg", "avif", None),
    ("rs:fit:200:200", "baseline.jpg", "heic", None),
    ("rs:fit:100:100", "baseline.jpg", "gif", None),
    ("rs:fit:100:100", "baseline.jpg", "tiff", None),
    ("rs:fit:100:100", "baseline.jpg", "bmp", None),
    ("rs:fit:64:64", "baseline.jpg", "ico", None),
    ("rs:fit:100:100", "rgb.jxl", "jxl", None),
    ("rs:fit:100:100", "animated.gif", "webp", None),
    ("rs:fit:100:100", "animated.webp", "gif", None),
    ("rs:fit:100:100", "thumbnail.heic", "jpg", None),
    ("rs:fit:100:100", "avif.avif", "png", None),
    ("rs:fit:100:100", "exif-thumbnail.jpg", "jpg", None),
    ("rs:fit:100:100", "rgb.tiff", "png", None),
    ("rs:fit:100:100", "lossless.webp", "webp", None),
    ("skp:jpg/rs:fit:100:100", "baseline.jpg", "jpg", None),
    ("raw:1", "baseline.jpg", None, None),
    ("cb:abc/rs:fit:100:100", "baseline.jpg", "jpg", None),
    ("fn:thumb/rs:fit:100:100", "baseline.jpg", "jpg", None),
    ("att:1/rs:fit:100:100", "baseline.jpg", "jpg", None),
    ("pr:thumb", "baseline.jpg", "jpg", None),
    ("msr:0.1/rs:fit:100:100", "baseline.jpg", "jpg", None),
    ("mrd:50/rs:fit:100:100", "baseline.jpg", "jpg", None),
    ("exp:1", "baseline.jpg", "jpg", None),
    ("rs:fit:100:100", "corrupt.jpg", "jpg", None),
    ("rs:fit:100:100", "not-an-image.txt", "jpg", None),
    ("rs:fit:100:100", "no-such-file.jpg", "jpg", None),
    ("rs:fit:100:100", "huge-declared.png", "png", None),
    ("rs:fit:100:100", "hostile-progressive.jpg", "jpg", None),
    ("nonsense:1", "baseline.jpg", "jpg", None),
    ("g:obj:face/rs:fill:100:100", "baseline.jpg", "jpg", None),
    ("rs:fit:100:100", "baseline.jpg", "xyz", None),
]
INFO = ["", "cs:1/bands:1/sf:1/pn:1/a:1", "avg:1/dc:1/bh:4:3/th:1/p:4", "chs:sha256:md5", "c:100:100:ce", "do:1"]


def sign(path):
    digest = hmac.new(KEY, SALT + path.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(base, path, headers):
    request = urllib.request.Request(base + path, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def main():
    binary = sys.argv[1]
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as scratch:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("VIGNETTE_", "IMGPROXY_"))}
        server = subprocess.Popen(
            [binary, "serve", "--bind", f"127.0.0.1:{port}", "--root", ROOT, "--key", KEY.hex(), "--salt", SALT.hex(),
             "--preset", "thumb=rs:fill:120:120/q:70", "--watermark", os.path.join(ROOT, "alpha.png")],
            env=env, stdout=subprocess.DEVNULL, stderr=open(os.path.join(scratch, "log"), "w"))
        try:
            for _ in range(300):
                try:
                    if fetch(base, "/health", {})[0] == 200:
                        break
                except OSError:
                    time.sleep(0.1)
            paths = []
            for options, name, extension, accept in IMAGES:
                tail = f"/plain/local:///{name}" + (f"@{extension}" if extension else "")
                path = f"/{options}{tail}"
                paths.append((f"/{sign(path)}{path}", accept))
            for options in INFO:
                path = (f"/{options}" if options else "") + "/plain/local:///baseline.jpg"
                paths.append((f"/info/{sign(path)}{path}", None))
            for kind in ("thumbhash", "blurhash"):
                path = "/rs:fit:100:100/plain/local:///baseline.jpg"
                paths.append((f"/placeholder/{kind}/{sign(path)}{path}", None))
            paths.append(("/badsignature/rs:fit:100:100/plain/local:///baseline.jpg", None))
            paths.append(("/insecure/rs:fit:100:100/plain/local:///baseline.jpg", None))
            encoded = "/rs:fit:90:90/" + base64.urlsafe_b64encode(b"local:///baseline.jpg").rstrip(b"=").decode() + ".png"
            paths.append((f"/{sign(encoded)}{encoded}", None))
            for path, accept in paths:
                headers = {"Accept": accept} if accept else {}
                status, answer, body = fetch(base, path, headers)
                fields = [answer.get(h, "-") for h in ("ETag", "Content-Type", "Vary", "Content-Disposition")]
                print("\t".join([path, accept or "-", str(status), *fields, hashlib.sha256(body).hexdigest()[:16]]))
                if status == 200 and answer.get("ETag"):
                    again, _, body304 = fetch(base, path, {**headers, "If-None-Match": answer["ETag"]})
                    print("\t".join([path, "If-None-Match", str(again), "-", "-", "-", "-", str(len(body304))]))
        finally:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
