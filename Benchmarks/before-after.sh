#!/usr/bin/env bash
# Two builds of VignetteBench side by side: sharp's JPEG task (720x588, Q80, libjpeg-turbo's route:
# VIGNETTE_JPEG_OWN_SCALED=0) and sharp's PNG task (720x540 from the 2048x1536 RGBA PNG), one
# thread, the two builds alternating over ROUNDS rounds of SECONDS each; ops per CPU-second (user +
# system from /usr/bin/time), which other work on the machine disturbs less than the wall-clock
# rate. Prints a line a run, then the medians and the median of the paired after / before ratios.
#
#   BEFORE=/path/to/old/VignetteBench AFTER=/path/to/new/VignetteBench Benchmarks/before-after.sh
#
# Build each with `swift build -c release --static-swift-stdlib --traits CLI --product VignetteBench`
# in a worktree of its commit (`git worktree add DIR COMMIT`). Needs ../shared/corpus (or CORPUS).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
corpus="${CORPUS:-$here/../../shared/corpus}"
rounds="${ROUNDS:-11}"
seconds="${SECONDS_EACH:-5}"
: "${BEFORE:?BEFORE=path of the old VignetteBench}" "${AFTER:?AFTER=path of the new VignetteBench}"
jpeg="$corpus/2569067123_aca715a2ee_o.jpg" png="$corpus/alpha-premultiply-2048x1536-paper.png"
[[ -f $jpeg && -f $png ]] || { echo "before-after: the corpus' photo and RGBA PNG are missing in $corpus" >&2; exit 1; }
export VIGNETTE_THREADS=1 VIGNETTE_JPEG_OWN_SCALED=0
times="$(mktemp)" results="$(mktemp)"
trap 'rm -f "$times" "$results"' EXIT
for round in $(seq 1 "$rounds"); do
  for which in before after; do
    bench=$BEFORE; [[ $which == after ]] && bench=$AFTER
    for task in jpeg png; do
      if [[ $task == jpeg ]]; then args=(jpeg-task --input "$jpeg" --width 720 --height 588);
      else args=(png-task --input "$png" --width 720 --height 540); fi
      line="$(/usr/bin/time -f '%U %S' -o "$times" "$bench" "${args[@]}" --seconds "$seconds" --warmup 1 | tail -1)"
      echo "$round $which $task $(awk '{ print $1 + $2 }' "$times") $line" | tee -a "$results" >&2
    done
  done
done
python3 - "$results" <<'PY'
import json, statistics, sys
rates = {}
for text in open(sys.argv[1]):
    round_, which, task, cpu, line = text.split(" ", 4)
    rates[(int(round_), which, task)] = json.loads(line)["ops"] / float(cpu)
for task in ("jpeg", "png"):
    rounds = sorted({r for (r, _, t) in rates if t == task})
    before = [rates[(r, "before", task)] for r in rounds]
    after = [rates[(r, "after", task)] for r in rounds]
    paired = [a / b for a, b in zip(after, before)]
    print(f"{task}: before {statistics.median(before):.1f}, after {statistics.median(after):.1f} ops per CPU-second; "
          f"after / before {statistics.median(paired):.2f} (paired rounds {min(paired):.2f}-{max(paired):.2f})")
PY
