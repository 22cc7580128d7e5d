"""Runs a command and prints one JSON line: its wall time and the CPU time (user + system) of it
and every process it waited for (RUSAGE_CHILDREN), for images/s and CPU ms per image.

    timed.py LABEL WORKERS IMAGES COMMAND...
"""
import json
import resource
import subprocess
import sys
import time

label, workers, images, command = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
before = resource.getrusage(resource.RUSAGE_CHILDREN)
start = time.perf_counter()
status = subprocess.run(command, stdout=subprocess.DEVNULL).returncode
wall = time.perf_counter() - start
after = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
print(json.dumps({"tool": label, "workers": workers, "images": images, "seconds": round(wall, 4), "cpu_seconds": round(cpu, 4),
                  "images_per_sec": round(images / wall, 3), "cpu_ms_per_image": round(1000 * cpu / images, 3),
                  "status": status}))
