"""Samples a running `vignette serve` every few seconds: its RSS (/proc/PID/status VmRSS) and the
gauges of its /metrics (on 127.0.0.1), one TSV row a sample on standard output.

    sample.py PID PORT INTERVAL SECONDS
"""
import sys
import time
import urllib.request

COLUMNS = {
    "encoded_bytes": ('vignette_memory_cache_bytes{cache="encoded"}',),
    "encoded_entries": ('vignette_memory_cache_entries{cache="encoded"}',),
    "encoded_evictions": ('vignette_memory_cache_evictions_total{cache="encoded"}',),
    "encoded_limit": ('vignette_memory_cache_limit_bytes{cache="encoded"}',),
    "staged_bytes": ("vignette_disk_cache_staged_bytes",),
    "vips_tracked": ("vignette_vips_tracked_memory_bytes",),
    "vips_highwater": ("vignette_vips_tracked_memory_highwater_bytes",),
    "vips_allocations": ("vignette_vips_tracked_allocations",),
    "vips_files": ("vignette_vips_open_files",),
    "threads": ("process_threads",),
    "fds": ("process_open_fds",),
    "cpu_seconds": ("process_cpu_seconds_total",),
    "metrics_rss": ("process_resident_memory_bytes",),
}


def scrape(port):
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read().decode()
    values, requests = {}, 0.0
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        name, _, value = line.rpartition(" ")
        values[name] = float(value)
        if name.startswith("vignette_http_requests_total"):
            requests += float(value)
    return values, requests


def rss(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def main():
    pid, port, interval, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
    print("\t".join(["seconds", "rss", "requests"] + list(COLUMNS)), flush=True)
    start = time.monotonic()
    while time.monotonic() - start <= seconds + interval:
        try:
            values, requests = scrape(port)
            row = [f"{time.monotonic() - start:.1f}", str(rss(pid)), f"{requests:.0f}"]
            row += [f"{values.get(names[0], 0):.0f}" if name != "cpu_seconds" else f"{values.get(names[0], 0):.2f}"
                    for name, names in COLUMNS.items()]
            print("\t".join(row), flush=True)
        except (OSError, ValueError) as error:
            print(f"# sample failed: {error}", file=sys.stderr)
            if not __import__("os").path.exists(f"/proc/{pid}"):
                return
        time.sleep(interval)


main()
