#!/usr/bin/env python3
"""A burst of concurrent requests against a running `vignette serve`: every request at once, one
connection each, then the statuses, the time to each answer by status, and what /metrics says of
the admission.

    Benchmarks/server/burst.py PORT [--count 2000] [--same] [--image Landscape_1.jpg]

Distinct requests fit the image into boxes of 60 to 2060 pixels (a new result each); --same asks
for one URL every time (warmed first, so every answer is a memory hit). Only the standard library.
"""
import argparse
import asyncio
import statistics
import time


async def get(port, path):
    started = time.monotonic()
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 22)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        await reader.read()
        writer.close()
    except (OSError, asyncio.IncompleteReadError) as error:
        return ("error " + type(error).__name__, time.monotonic() - started, None)
    lines = head.decode("latin-1").split("\r\n")
    status = lines[0].split(" ")[1]
    retry = next((line.split(":", 1)[1].strip() for line in lines if line.lower().startswith("retry-after:")), None)
    return (status, time.monotonic() - started, retry)


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("port", type=int)
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--same", action="store_true")
    parser.add_argument("--image", default="Landscape_1.jpg")
    arguments = parser.parse_args()

    def path(index):
        side = 256 if arguments.same else 60 + index % 2001
        return f"/insecure/rs:fit:{side}:{side}/plain/local:///{arguments.image}@jpg"

    if arguments.same:
        await get(arguments.port, path(0))
    started = time.monotonic()
    results = await asyncio.gather(*(get(arguments.port, path(index)) for index in range(arguments.count)))
    wall = time.monotonic() - started
    print(f"{arguments.count} {'equal' if arguments.same else 'distinct'} requests in {wall:.2f} s")
    for status in sorted({result[0] for result in results}):
        times = sorted(result[1] for result in results if result[0] == status)
        retries = sorted({result[2] for result in results if result[0] == status and result[2]})
        line = f"  {status}: {len(times):5d}  median {statistics.median(times) * 1000:7.0f} ms  max {times[-1] * 1000:7.0f} ms"
        if retries:
            line += f"  Retry-After {retries[0]}–{retries[-1]}" if len(retries) > 1 else f"  Retry-After {retries[0]}"
        print(line)
    reader, writer = await asyncio.open_connection("127.0.0.1", arguments.port)
    writer.write(b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    text = (await reader.read()).decode()
    writer.close()
    for line in text.splitlines():
        if line.startswith(("vignette_admission_", "vignette_decodes_total")):
            print("  " + line)


asyncio.run(main())
