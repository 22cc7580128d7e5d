#!/usr/bin/env bash
# Creates the venvs of the benchmark's Python peers, from PyPI, each apart because they conflict:
#   Benchmarks/.venv         pyvips (on the system libvips, libvips.so.42, through cffi), Pillow, matplotlib
#   Benchmarks/.venv-simd    Pillow-SIMD (pillow-simd, built from source: needs libjpeg-dev, zlib1g-dev
#                            and python3-dev, which `make bench` installs; links the system libjpeg-turbo)
#   Benchmarks/.venv-vips818 pyvips with pyvips-binary (its own libvips 8.18 with its SIMD paths)
# Idempotent: does nothing for a venv whose packages already import.
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

# Pillow-SIMD: the same PIL module, AVX2 resampling. Its version says ".postN".
simd="$here/.venv-simd"
[[ -x "$simd/bin/python" ]] || "$python" -m venv "$simd"
if ! "$simd/bin/python" -c 'import PIL, sys; sys.exit(".post" not in PIL.__version__)' 2>/dev/null; then
    echo "setup-venv: building Pillow-SIMD from PyPI (pillow-simd) in $simd" >&2
    "$simd/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip >&2
    "$simd/bin/python" -m pip install --quiet --disable-pip-version-check pillow-simd >&2
fi

# pyvips on libvips 8.18: pyvips builds its own _libvips against the system libvips when
# libvips-dev is installed, so pyvips-binary's _libvips is put back over it afterwards.
vips818="$here/.venv-vips818"
[[ -x "$vips818/bin/python" ]] || "$python" -m venv "$vips818"
if ! "$vips818/bin/python" -c 'import pyvips, sys; sys.exit(pyvips.version(1) < 18)' 2>/dev/null; then
    echo "setup-venv: installing pyvips and pyvips-binary (libvips 8.18) in $vips818" >&2
    "$vips818/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip >&2
    "$vips818/bin/python" -m pip install --quiet --disable-pip-version-check pyvips pyvips-binary >&2
    "$vips818/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps pyvips-binary >&2
    if ! "$vips818/bin/python" -c 'import pyvips, sys; sys.exit(pyvips.version(1) < 18)'; then
        echo "setup-venv: pyvips in $vips818 does not load libvips 8.18" >&2
        exit 1
    fi
fi
