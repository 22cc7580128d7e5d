#!/usr/bin/env bash
# Thumbnails of a whole folder as a Slurm job array: each array task makes its shard
# (`--shard auto` reads SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT), and a task that is
# requeued or rerun skips what is already written (`--skip-existing`).
#
#   sbatch examples/slurm-array.sh                    (paths from the variables below)
#   INPUT=/data/photos OUT=/data/thumbs sbatch examples/slurm-array.sh
#
#SBATCH --job-name=vignette-thumbnails
#SBATCH --array=0-3
#SBATCH --cpus-per-task=4
#SBATCH --mem=4G
#SBATCH --time=02:00:00
set -euo pipefail
VIGNETTE="${VIGNETTE:-vignette}"
INPUT="${INPUT:-/data/photos}"
OUT="${OUT:-/data/thumbnails}"
SIZE="${SIZE:-256}"
# Each task writes its own JSON report beside the thumbnails (so the folder must exist before
# vignette makes it); a failed input gives exit status 1, which Slurm records for the task (the
# other inputs are still written).
mkdir -p "$OUT"
exec "$VIGNETTE" thumbnail "$INPUT" --out "$OUT" --size "$SIZE" --shard auto --skip-existing \
    --jobs "${SLURM_CPUS_PER_TASK:-1}" --json > "$OUT/report-${SLURM_ARRAY_TASK_ID:-0}.json"
