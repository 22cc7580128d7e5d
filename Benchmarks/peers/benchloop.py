"""The loop protocol shared by the Python peers, the same as VignetteBench's jpeg-task and png-task.

Read the input into memory once; run the operation for --warmup seconds (default 1), then count
operations for --seconds, one at a time; print one JSON line
{"tool": ..., "ops_per_sec": ..., "ops": ..., "seconds": ...}; write the last output to --output.
The operation gets the bytes and the parsed arguments: --format (the task's own by default; the
JPEG task's also webp or avif), --quality (80) and --speed (the AVIF encoder's, 9) say how the result is encoded.
--tool renames the row: the same script runs as Pillow and as Pillow-SIMD, as pyvips on the
system libvips and on pyvips-binary's, each from its own venv.
"""
import argparse
import json
import sys
import time


def run(tool, operation, extra=None, default_format="jpeg"):
    parser = argparse.ArgumentParser(description=f"{tool}: one of sharp's tasks")
    parser.add_argument("--input", required=True)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--warmup", type=float, default=1.0)
    parser.add_argument("--output")
    parser.add_argument("--tool", help="the name to report (e.g. Pillow-SIMD for the same script in its venv)")
    # The JPEG task's scripts also encode WebP and AVIF; the PNG task's only PNG.
    formats = [default_format, "webp", "avif"] if default_format == "jpeg" else [default_format]
    parser.add_argument("--format", default=default_format, choices=formats)
    parser.add_argument("--quality", type=int, default=80)
    parser.add_argument("--speed", type=int, default=9, help="AVIF encoder speed, 0 (slowest) to 9")
    parser.add_argument("--width", type=int, help="the box's width (the task's own by default)")
    parser.add_argument("--height", type=int, help="the box's height (the task's own by default)")
    args = parser.parse_args()
    tool = args.tool or tool
    if args.seconds <= 0 or args.warmup < 0:
        parser.error("--seconds must be positive and --warmup not negative")
    try:
        with open(args.input, "rb") as f:
            data = f.read()
    except OSError as error:
        print(f"{tool}: cannot read {args.input}: {error}", file=sys.stderr)
        sys.exit(1)

    clock = time.perf_counter
    last = operation(data, args)
    end = clock() + args.warmup
    while clock() < end:
        last = operation(data, args)

    ops = 0
    start = clock()
    deadline = start + args.seconds
    while True:
        last = operation(data, args)
        ops += 1
        now = clock()
        if now >= deadline:
            break
    elapsed = now - start

    if args.output:
        with open(args.output, "wb") as f:
            f.write(last)
    result = {"tool": tool, "ops_per_sec": round(ops / elapsed, 3), "ops": ops,
              "seconds": round(elapsed, 3), "bytes": len(last),
              "format": args.format, "quality": args.quality}
    result.update(extra or {})
    print(json.dumps(result))
