#!/usr/bin/env python3
"""A burst of distinct cheap thumbnail requests, every one on its own connection at once, against
`vignette serve` on 127.0.0.1: how many are answered 200 and how many 503, and how long the whole
burst took. The admission should answer 503 only where a request would really not be served in
time (the default --timeout, 30 s, and its half as the queue-wait target).

    Benchmarks/admission-burst.py .build/release/vignette [COUNT]   (default 2000)
"""
import asyncio
import collections
import os
import socket
import subprocess
import sys
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def get(port, path):
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 22)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    status = int((await reader.readline()).split()[1])
    await reader.read()
    writer.close()
    return status


async def burst(port, count):
    paths = [f"/insecure/rs:fit:{40 + i % 400}:{40 + i // 400}/plain/local:///baseline.jpg@jpg" for i in range(count)]
    return await asyncio.gather(*(get(port, path) for path in paths))


def main():
    binary = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIGNETTE_", "IMGPROXY_"))}
    server = subprocess.Popen([binary, "serve", "--bind", f"127.0.0.1:{port}", "--root", ROOT],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        started = time.monotonic()
        statuses = asyncio.run(burst(port, count))
        took = time.monotonic() - started
        counts = collections.Counter(statuses)
        print(" ".join(f"{status}x{n}" for status, n in sorted(counts.items())), f"in {took:.1f} s")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
