#!/usr/bin/env bash
# The soak's own venv (Benchmarks/soak/.venv) with matplotlib from PyPI, for its plot; idempotent.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$here/.venv"
[[ -x "$venv/bin/python" ]] || "${PYTHON:-python3}" -m venv "$venv"
if ! "$venv/bin/python" -c 'import matplotlib' 2> /dev/null; then
    echo "soak: installing matplotlib into $venv" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check matplotlib >&2
fi
