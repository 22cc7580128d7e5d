"""Files → files throughput of the Python peers on sharp's JPEG task: every input file is read,
fitted inside 720x588 (or --size W H) with Lanczos 3 and written as JPEG quality 80 into --out, by
a multiprocessing.Pool of --workers processes (one file per task).

    throughput.py --library pillow|pyvips --workers N [--size W H] --out DIR FILE...

Pillow (and Pillow-SIMD, the same code in its own venv) uses draft() (libjpeg DCT scaling) then
thumbnail(LANCZOS); pyvips uses thumbnail() with the operation cache off. The timing is done
outside, around the whole process (Benchmarks/peers/timed.py), as for `vignette thumbnail`."""
import argparse
import os
from multiprocessing import Pool

library = None
out_dir = None
box = (720, 588)


def setup(name, out, size):
    global library, out_dir, box
    library, out_dir, box = name, out, size
    if name == "pyvips":
        import pyvips
        pyvips.cache_set_max(0)


def make(path):
    target = os.path.join(out_dir, os.path.splitext(os.path.basename(path))[0] + ".jpg")
    if library == "pillow":
        from PIL import Image
        with Image.open(path) as im:
            im.draft("RGB", box)
            im.thumbnail(box, Image.LANCZOS)
            im.save(target, "JPEG", quality=80)
    else:
        import pyvips
        pyvips.Image.thumbnail(path, box[0], height=box[1]).write_to_file(target + "[Q=80]")
    return target


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--library", choices=["pillow", "pyvips"], required=True)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--size", type=int, nargs=2, default=[720, 588], metavar=("W", "H"))
    parser.add_argument("--out", required=True)
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    pool = Pool(args.workers, initializer=setup, initargs=(args.library, args.out, tuple(args.size)))
    pool.map(make, args.files, chunksize=1)
    pool.close()
    pool.join()


if __name__ == "__main__":
    main()
