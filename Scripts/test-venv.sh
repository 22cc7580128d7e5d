#!/usr/bin/env bash
# Creates .venv-test (git-ignored) with the Python packages of the S3 tests from PyPI
# (Scripts/test-requirements.txt: moto's server, botocore, Pillow, NumPy), never in the system Python.
# Idempotent: does nothing when the venv already imports them. Prints the venv's python.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv-test"
python="${PYTHON:-python3}"

check() {
    "$venv/bin/python" -c 'import moto, moto.server, botocore, flask, PIL, numpy' 2>/dev/null
}

if ! check; then
    if [[ ! -x "$venv/bin/python" ]]; then
        echo "test-venv: creating $venv" >&2
        if ! "$python" -m venv "$venv" >&2; then
            # Debian's python3 has venv (and ensurepip) in a package of its own.
            rm -rf "$venv"
            "$root/Scripts/install-packages.sh" python3-venv >&2
            "$python" -m venv "$venv" >&2
        fi
    fi
    echo "test-venv: installing $(grep -v '^#' "$root/Scripts/test-requirements.txt" | xargs) from PyPI" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$root/Scripts/test-requirements.txt" >&2
    check || { echo "test-venv: 'import moto, botocore' still fails in $venv" >&2; exit 1; }
fi
echo "$venv/bin/python"
