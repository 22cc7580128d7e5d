"""The versions of the Python peers this interpreter holds, as one JSON object.
Usage: versions.py full|simd|vips  (the main venv, Pillow-SIMD's, pyvips-binary's)"""
import json, platform, sys

mode = sys.argv[1]
if mode == "full":
    import PIL, pyvips
    from PIL import features
    print(json.dumps({
        "python": platform.python_version(),
        "pyvips": pyvips.__version__,
        "pyvips_libvips": f"{pyvips.version(0)}.{pyvips.version(1)}.{pyvips.version(2)}",
        "pyvips_mode": "API (compiled cffi)" if pyvips.API_mode else "ABI",
        "Pillow": PIL.__version__,
        "Pillow_libjpeg_turbo": features.version("libjpeg_turbo"),
    }))
elif mode == "simd":
    import PIL
    from PIL import features
    print(json.dumps({"Pillow-SIMD": PIL.__version__, "libjpeg_turbo": features.version("libjpeg_turbo")}))
elif mode == "vips":
    import pyvips
    print(json.dumps({"pyvips": pyvips.__version__,
                      "libvips": f"{pyvips.version(0)}.{pyvips.version(1)}.{pyvips.version(2)}"}))
else:
    sys.exit(f"versions.py: unknown mode {mode}")
