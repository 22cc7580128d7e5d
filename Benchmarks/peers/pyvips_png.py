"""pyvips on sharp's PNG task: thumbnail_buffer inside 720x540 (lanczos3 is its default kernel;
libvips premultiplies alpha itself), then PNG at zlib level 6. libvips' operation cache is off so
every operation does the real work."""
import pyvips

from benchloop import run

pyvips.cache_set_max(0)


def operation(data, args):
    image = pyvips.Image.thumbnail_buffer(data, 720, height=540)
    return image.write_to_buffer(".png[compression=6]")


if __name__ == "__main__":
    run("pyvips", operation, {
        "version": pyvips.__version__,
        "libvips": f"{pyvips.version(0)}.{pyvips.version(1)}.{pyvips.version(2)}",
        "threads": pyvips.concurrency_get() if hasattr(pyvips, "concurrency_get")
        else pyvips.vips_lib.vips_concurrency_get(),
    }, default_format="png")
