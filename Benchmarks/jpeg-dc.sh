#!/usr/bin/env bash
# The JPEG DC paths (issue 25), in-process, on and off: 256-px thumbnails (JPEG Q80, Lanczos 3, one
# thread) of the benchmark photo and of its progressive twin, and sharp's task (720x588, which
# decodes at 1/2 and so never takes a DC path) as a check that nothing else got slower; beside
# Pillow-SIMD (Benchmarks/.venv-simd) when it is there. Also the reduced-scale decoder (issue 34):
# the 720x588 box (1/2) and a 512-px box (1/4) with VIGNETTE_JPEG_OWN_SCALED=1 and =0, beside
# Pillow-SIMD and libjpeg-turbo's own share of the same thumbnail (decoder/turbo_floor.c: the scaled
# decode to planes and the encode, the floor the peers share), for the photo and its progressive
# twin. Then the three boxes at 2 workers, and the twin's two (two such processes at once, their
# rates added), and the corpus' JPEGs as a batch, files to
# files, at 1 and 2 workers (`vignette thumbnail --jobs N` against peers/throughput.py's process
# pool). Prints a Markdown section on stdout.
#
#   Benchmarks/jpeg-dc.sh        BENCH_SECONDS (5) per case, BENCH_ROUNDS (3) rounds, interleaved;
#                                JPEG_DC_CASES ("256 scaled pairs batch") the groups of cases to run;
#                                JPEG_DC_BATCH_SIZES ("256 720") the batch's thumbnail sizes
#
# The twin is made here with `jpegtran -progressive` (lossless: the same coefficients, so the same
# 1/8 planes) and is not kept; the script checks that the two 256-px thumbnails are byte-identical.
# SKIP_BUILD=1 uses the existing release VignetteBench. Needs ../shared/corpus (or CORPUS).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
cd "$repo"
seconds="${BENCH_SECONDS:-5}"
rounds="${BENCH_ROUNDS:-3}"
input="${CORPUS:-$repo/../shared/corpus}/2569067123_aca715a2ee_o.jpg"
[[ -f "$input" ]] || { echo "jpeg-dc: $input is missing" >&2; exit 0; }
command -v jpegtran >/dev/null || { echo "jpeg-dc: jpegtran is missing (apt-get install libjpeg-turbo-progs)" >&2; exit 1; }
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    swift build -c release --static-swift-stdlib --traits CLI --product VignetteBench >&2
    swift build -c release --static-swift-stdlib --traits CLI --product vignette >&2
fi
bench="$(swift build -c release --static-swift-stdlib --traits CLI --show-bin-path)/VignetteBench"
vignette="$(swift build -c release --static-swift-stdlib --traits CLI --show-bin-path)/vignette"
simd="$here/.venv-simd/bin/python"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
twin="$out/twin.jpg"
jpegtran -progressive -outfile "$twin" "$input"
floor="$out/turbo_floor"
clang -O2 -o "$floor" "$here/decoder/turbo_floor.c" -lturbojpeg

results="$out/results.jsonl"
# timed COMMAND...: the command's JSON line with "cpu_seconds" (user + system, from /usr/bin/time)
# added, appended to $results: ops per CPU-second is the rate per core, which other work on the
# machine disturbs less than the wall-clock rate.
timed() {
    local line cpu
    line="$(/usr/bin/time -f '%U %S' -o "$out/time" "$@")"
    cpu="$(awk '{ print $1 + $2 }' "$out/time")"
    echo "{\"cpu_seconds\":$cpu,${line#\{}" >> "$results"
}
cases=" ${JPEG_DC_CASES:-256 scaled pairs batch} "
batch_sizes="${JPEG_DC_BATCH_SIZES:-256 720}"
for round in $(seq 1 "$rounds"); do
    if [[ $cases == *" scaled "* ]]; then
        for box in "720 588 1/2" "512 512 1/4"; do
            read -r width height scale <<< "$box"
            for source in baseline progressive; do
                file="$input" suffix="" name="$width"
                [[ $source = progressive ]] && file="$twin" suffix=", progressive" name="$width-progressive"
                for own in 1 0; do
                    echo "jpeg-dc: round $round, ${width}x$height$suffix, reduced-scale decoder $own" >&2
                    timed env VIGNETTE_THREADS=1 VIGNETTE_JPEG_OWN_SCALED=$own "$bench" jpeg-task --input "$file" \
                        --seconds "$seconds" --width "$width" --height "$height" --output "$out/scaled-$name-$own.jpg" \
                        --tool "vignette ${width}x$height ($scale)$suffix, reduced-scale decoder $([[ $own = 1 ]] && echo on || echo off)"
                done
                if [[ -x "$simd" ]]; then
                    timed "$simd" "$here/peers/pillow_jpeg.py" --tool "Pillow-SIMD ${width}x$height$suffix" --input "$file" \
                        --seconds "$seconds" --width "$width" --height "$height"
                fi
                timed "$floor" "$file" "$seconds" "$width" "$height" "${scale#1/}" "libjpeg-turbo floor ${width}x$height ($scale)$suffix"
            done
        done
    fi
    [[ $cases == *" 256 "* ]] || continue
    for source in baseline progressive; do
        file="$input"; [[ $source = progressive ]] && file="$twin"
        for fast in 1 0; do
            echo "jpeg-dc: round $round, $source, fast DC $fast" >&2
            timed env VIGNETTE_THREADS=1 VIGNETTE_JPEG_FAST_DC=$fast "$bench" jpeg-task --input "$file" --seconds "$seconds" \
                --width 256 --height 256 --tool "vignette 256 px, $source, DC paths $([[ $fast = 1 ]] && echo on || echo off)" \
                --output "$out/$source-$fast.jpg"
        done
        if [[ -x "$simd" ]]; then
            timed "$simd" "$here/peers/pillow_jpeg.py" --tool "Pillow-SIMD 256 px, $source" --input "$file" --seconds "$seconds" \
                --width 256 --height 256
        fi
    done
    for fast in 1 0; do
        timed env VIGNETTE_THREADS=1 VIGNETTE_JPEG_FAST_DC=$fast "$bench" jpeg-task --input "$input" --seconds "$seconds" \
            --tool "vignette sharp's task (720x588, 1/2), DC paths $([[ $fast = 1 ]] && echo on || echo off)"
    done
    if [[ -x "$simd" ]]; then
        timed "$simd" "$here/peers/pillow_jpeg.py" --tool "Pillow-SIMD sharp's task" --input "$input" --seconds "$seconds"
    fi
done

# Two workers: two copies of a case at once, each one thread; a round's rate is the two added.
pairs="$out/pairs.jsonl"
run_pair() {
    local label="$1" round="$2"; shift 2
    /usr/bin/time -f '%U %S' -o "$out/time-a" "$@" > "$out/line-a" &
    local first=$!
    /usr/bin/time -f '%U %S' -o "$out/time-b" "$@" > "$out/line-b"
    wait "$first"
    python3 - "$label" "$round" "$out/line-a" "$out/line-b" "$out/time-a" "$out/time-b" >> "$pairs" <<'PY'
import json, sys
label, round_, la, lb, ta, tb = sys.argv[1:7]
rows = [json.loads(open(p).read()) for p in (la, lb)]
cpu = sum(sum(map(float, open(p).read().split())) for p in (ta, tb))
print(json.dumps({"tool": label, "round": int(round_), "ops_per_sec": sum(r["ops_per_sec"] for r in rows),
                  "ops": sum(r["ops"] for r in rows), "cpu_seconds": cpu}))
PY
}
for round in $(seq 1 "$rounds"); do
    [[ $cases == *" pairs "* ]] || break
    echo "jpeg-dc: round $round, 2 workers" >&2
    for pair in "256x256 baseline" "720x588 baseline" "512x512 baseline" "720x588 progressive" "512x512 progressive"; do
        read -r box source <<< "$pair"
        width="${box%x*}" height="${box#*x}" file="$input"
        [[ $source = progressive ]] && file="$twin"
        run_pair "vignette ${box}, $source, 2 workers" "$round" env VIGNETTE_THREADS=1 "$bench" jpeg-task --input "$file" \
            --seconds "$seconds" --width "$width" --height "$height" --tool x
        if [[ -x "$simd" ]]; then
            run_pair "Pillow-SIMD ${box}, $source, 2 workers" "$round" "$simd" "$here/peers/pillow_jpeg.py" --tool x \
                --input "$file" --seconds "$seconds" --width "$width" --height "$height"
        fi
    done
done

# The corpus' JPEGs that decode (not the damaged two, nor the 280-MP one, which Pillow refuses as a
# decompression bomb), each under 8 names, files to files at 256 px; whole processes timed by
# peers/timed.py, each run once untimed first (the page cache and the binaries' pages). Twice: all
# of them, and without the two CMYK files, which Vignette converts to sRGB through their ICC profile
# (or libvips' CMYK profile) and Pillow converts without colour management.
batch="$out/batch"
mkdir -p "$batch/all" "$batch/rgb"
corpus="$(dirname "$input")"
while IFS=$'\t' read -r file format; do
    [[ "$format" == JPEG && -f "$corpus/$file" ]] || continue
    case "$file" in corrupt-header.jpg|truncated.jpg|giant-image.jpg) continue ;; esac
    for copy in 1 2 3 4 5 6 7 8; do
        ln -s "$corpus/$file" "$batch/all/${file%.jpg}-$copy.jpg"
        [[ "$file" == *CMYK* ]] || ln -s "$corpus/$file" "$batch/rgb/${file%.jpg}-$copy.jpg"
    done
done < <(tail -n +2 "$corpus/MANIFEST.tsv" | cut -f1,3)
batches="$out/batches.jsonl"
batch_case() {
    local label="$1" workers="$2" count="$3"; shift 3
    rm -rf "$batch/out" && mkdir -p "$batch/out"
    "$@" > /dev/null 2>&1 || true
    rm -rf "$batch/out" && mkdir -p "$batch/out"
    python3 "$here/peers/timed.py" "$label" "$workers" "$count" "$@" >> "$batches"
}
if [[ -x "$vignette" && $cases == *" batch "* ]]; then
    for round in $(seq 1 "$rounds"); do
        for set in all rgb; do
            files=("$batch/$set"/*.jpg)
            name="$([[ $set = all ]] && echo "all ${#files[@]}" || echo "${#files[@]} without CMYK")"
            for size in $batch_sizes; do
                for workers in 1 2; do
                    echo "jpeg-dc: round $round, corpus batch ($name) at $size px, $workers worker(s)" >&2
                    batch_case "vignette thumbnail --jobs $workers ($name, $size px)" "$workers" "${#files[@]}" "$vignette" \
                        thumbnail "${files[@]}" --size "$size" --quality 80 --out "$batch/out" --jobs "$workers"
                    if [[ -x "$simd" ]]; then
                        batch_case "Pillow-SIMD, $workers worker(s) ($name, $size px)" "$workers" "${#files[@]}" "$simd" \
                            "$here/peers/throughput.py" --library pillow --size "$size" "$size" --workers "$workers" \
                            --out "$batch/out" "${files[@]}"
                    fi
                done
            done
        done
    done
fi

same="differ"
cmp -s "$out/baseline-1.jpg" "$out/progressive-1.jpg" && cmp -s "$out/baseline-1.jpg" "$out/baseline-0.jpg" \
    && cmp -s "$out/baseline-1.jpg" "$out/progressive-0.jpg" && same="are byte-identical"
[[ $cases == *" 256 "* ]] || same=""
scaled_same=""
if [[ $cases == *" scaled "* ]]; then
    scaled_same="differ"
    cmp -s "$out/scaled-720-1.jpg" "$out/scaled-720-0.jpg" && cmp -s "$out/scaled-512-1.jpg" "$out/scaled-512-0.jpg" \
        && cmp -s "$out/scaled-720-progressive-1.jpg" "$out/scaled-720-progressive-0.jpg" \
        && cmp -s "$out/scaled-512-progressive-1.jpg" "$out/scaled-512-progressive-0.jpg" && scaled_same="are byte-identical"
fi
python3 - "$results" "$seconds" "$rounds" "$same" "$pairs" "$batches" "$scaled_same" <<'PY'
import json, os, statistics, sys
path, seconds, rounds, same, pairs, batches, scaled_same = sys.argv[1:8]

def rate_table(jsonl):
    """Each case's median ops/s and ops per CPU-second over its rounds, and the rounds' ops/s."""
    cases = {}
    for line in open(jsonl):
        row = json.loads(line)
        cases.setdefault(row["tool"], []).append((row["ops_per_sec"], row["ops"] / row["cpu_seconds"] if row["cpu_seconds"] else 0))
    print("| case | ops/s | ops per CPU-second | ops/s in each round |")
    print("|---|---:|---:|---|")
    for tool, rates in cases.items():
        print(f"| {tool} | {statistics.median(r[0] for r in rates):.1f} | {statistics.median(r[1] for r in rates):.1f} | "
              f"{', '.join(f'{r[0]:.1f}' for r in rates)} |")

print("## JPEG DC paths (Benchmarks/jpeg-dc.sh)")
print()
print(f"One thread, one operation at a time, {seconds} s per case after a 1 s warm-up, {rounds} interleaved")
print("round(s); medians. Ops per CPU-second counts the timed operations over the process's whole CPU time")
print("(warm-up and start-up included, so it is a little low), the rate per core, which other work")
print("on the machine disturbs less than the wall-clock rate.")
print()
rate_table(path)
print()
if same:
    print(f"The 256-px thumbnails of the photo and of its progressive twin, DC paths on and off, {same}.")
if scaled_same:
    print(f"The 720x588 and 512x512 thumbnails of the photo and of its twin with the reduced-scale decoders on and off {scaled_same}.")
    # Each box's time per image against libjpeg-turbo's own share of it, per CPU-second.
    rates = {}
    for line in open(path):
        row = json.loads(line)
        rates.setdefault(row["tool"], []).append(row["ops"] / row["cpu_seconds"] if row["cpu_seconds"] else 0)
    for box, scale in (("720x588", "1/2"), ("512x512", "1/4")):
        for suffix in ("", ", progressive"):
            own = rates.get(f"vignette {box} ({scale}){suffix}, reduced-scale decoder on")
            floor = rates.get(f"libjpeg-turbo floor {box} ({scale}){suffix}")
            if own and floor:
                print(f"At {box}{', the progressive twin,' if suffix else ''} Vignette's CPU time per image is "
                      f"{statistics.median(floor) / statistics.median(own):.2f}x "
                      "libjpeg-turbo's own decode at the scale plus encode (medians of ops per CPU-second).")
if os.path.exists(pairs):
    print()
    print("Two workers: two copies of a case at once, each one thread; a round's ops/s is the two added,")
    print("ops per CPU-second is both copies' operations over both processes' CPU time.")
    print()
    rate_table(pairs)
if os.path.exists(batches):
    print()
    print("The corpus' JPEGs as a batch: each decodable corpus JPEG under 8 names, all of them and without the")
    print("two CMYK files, to thumbnails of the size in each row, JPEG Q80, files to files, whole processes (peers/timed.py: wall")
    print("time, and the CPU time of the process and its children); medians.")
    print()
    print("| command | images/s | CPU ms per image | images/s in each round |")
    print("|---|---:|---:|---|")
    cases = {}
    for line in open(batches):
        row = json.loads(line)
        cases.setdefault(row["tool"], []).append(row)
    for tool, rows in cases.items():
        bad = sum(1 for r in rows if r["status"] != 0)
        note = f" ({bad} runs exited non-zero)" if bad else ""
        print(f"| {tool}{note} | {statistics.median(r['images_per_sec'] for r in rows):.1f} | "
              f"{statistics.median(r['cpu_ms_per_image'] for r in rows):.2f} | {', '.join(str(r['images_per_sec']) for r in rows)} |")
PY
