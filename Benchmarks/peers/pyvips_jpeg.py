"""pyvips on sharp's JPEG task: thumbnail_buffer inside 720x588 (lanczos3 is its default kernel),
then JPEG quality 80. libvips' operation cache is off so every operation does the real work."""
import pyvips

from benchloop import run

pyvips.cache_set_max(0)


def operation(data):
    image = pyvips.Image.thumbnail_buffer(data, 720, height=588)
    return image.write_to_buffer(".jpg[Q=80]")


if __name__ == "__main__":
    run("pyvips", operation, {
        "version": pyvips.__version__,
        "libvips": f"{pyvips.version(0)}.{pyvips.version(1)}.{pyvips.version(2)}",
        "threads": pyvips.concurrency_get() if hasattr(pyvips, "concurrency_get")
        else pyvips.vips_lib.vips_concurrency_get(),
    })
