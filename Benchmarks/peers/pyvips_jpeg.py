"""pyvips on sharp's JPEG task: thumbnail_buffer inside 720x588 (lanczos3 is its default kernel),
then JPEG quality 80. With --format webp: libwebp, lossy, effort 4 (libwebp's method); with
--format avif: heifsave with aom, 4:2:0, effort 9 - --speed (libvips passes aom speed 9 - effort).
libvips' operation cache is off so every operation does the real work."""
import pyvips

from benchloop import run

pyvips.cache_set_max(0)


def operation(data, args):
    image = pyvips.Image.thumbnail_buffer(data, 720, height=588)
    if args.format == "webp":
        return image.write_to_buffer(f".webp[Q={args.quality},effort=4]")
    if args.format == "avif":
        return image.write_to_buffer(f".avif[Q={args.quality},effort={9 - args.speed},subsample-mode=on]")
    return image.write_to_buffer(f".jpg[Q={args.quality}]")


if __name__ == "__main__":
    run("pyvips", operation, {
        "version": pyvips.__version__,
        "libvips": f"{pyvips.version(0)}.{pyvips.version(1)}.{pyvips.version(2)}",
        "threads": pyvips.concurrency_get() if hasattr(pyvips, "concurrency_get")
        else pyvips.vips_lib.vips_concurrency_get(),
    })
