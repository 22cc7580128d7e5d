#!/usr/bin/env bash
# Prints what `make demo` did, from the JSON report of `vignette thumbnail --json`.
set -euo pipefail
python3 - "$1" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
for r in report["results"]:
    name = r["input"].split("/")[-1]
    if r["error"]:
        print(f"  failed  {name:28} {r['error']}")
    else:
        print(f"  wrote   {name:28} -> {r['output']} {r['width']}x{r['height']}, {r['bytes']} bytes, {r['ms']} ms")
t = report["totals"]
print(f"{t['succeeded']} written, {t['failed']} failed, {t['bytes']} bytes in {t['ms']} ms")
PY
