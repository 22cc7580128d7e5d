"""Runs a command and prints one JSON line: its peak RSS, wall seconds and exit status.
Usage: peak_memory.py TOOL-NAME COMMAND..."""
import json, resource, subprocess, sys, time
start = time.perf_counter()
status = subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
elapsed = time.perf_counter() - start
peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"tool": sys.argv[1], "max_rss_kb": peak_kb, "seconds": round(elapsed, 3), "status": status}))
