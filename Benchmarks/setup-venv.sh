#!/usr/bin/env bash
# Creates Benchmarks/.venv with the Python peers of the benchmark, pyvips and Pillow, and matplotlib
# for the plot, from PyPI.
# Idempotent: does nothing when both already import. pyvips finds the system libvips
# (libvips42, libvips.so.42) through cffi.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$here/.venv"
python="${PYTHON:-python3}"

if [[ ! -x "$venv/bin/python" ]]; then
    echo "setup-venv: creating $venv" >&2
    "$python" -m venv "$venv"
fi

check() {
    "$venv/bin/python" - <<'PY' 2>/dev/null
import pyvips, PIL, matplotlib
pyvips.Image.black(1, 1).avg()
PY
}

if ! check; then
    echo "setup-venv: installing pyvips, Pillow and matplotlib from PyPI" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check pyvips Pillow matplotlib >&2
    if ! check; then
        echo "setup-venv: 'import pyvips, PIL, matplotlib' still fails; is libvips42 installed (libvips.so.42)?" >&2
        "$venv/bin/python" -c 'import pyvips' >&2 || true
        exit 1
    fi
fi
