#!/usr/bin/env bash
# Vignette's speed benchmark: sharp's JPEG task, in-process, beside pyvips and Pillow measured in
# the same run; then the similarity check against libvips' own vipsthumbnail, and a whole-process
# comparison of `vignette thumbnail` with `vipsthumbnail` under hyperfine.
#
#   Benchmarks/run.sh                 (or `make bench`)
#
# Environment:
#   BENCH_SECONDS   seconds each in-process case is timed per round, after a 1 s warm-up (default 10).
#                   (Not SECONDS: that is a bash special variable.)
#   BENCH_THREADS   libvips threads per image for the Vignette rows, space-separated (default "1 2");
#                   passed to VignetteBench as VIGNETTE_THREADS.
#   BENCH_ROUNDS    rounds of all in-process cases, interleaved; the report takes the median (default 3).
#   BENCH_RUNS      hyperfine runs per command (default 30; warm-up 3).
#   CORPUS          the corpus folder (default ../shared/corpus beside the checkout).
#   SKIP_BUILD=1    use the existing .build/release binaries.
#
# Raw results go to Benchmarks/results/<timestamp>/ (git-ignored); the Markdown report goes to
# stdout and to results/<timestamp>/report.md. Progress goes to stderr.
set -euo pipefail

bench_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$bench_dir/.." && pwd)"
cd "$repo"

seconds="${BENCH_SECONDS:-10}"
threads_list="${BENCH_THREADS:-1 2}"
runs="${BENCH_RUNS:-30}"
rounds="${BENCH_ROUNDS:-3}"
corpus="${CORPUS:-../shared/corpus}"
input="$corpus/2569067123_aca715a2ee_o.jpg"

log() { echo "bench: $*" >&2; }

if [[ ! -f "$input" ]]; then
    echo "bench: skipped: $input is absent (the corpus lives in ../shared/corpus beside the checkout; set CORPUS to point elsewhere)"
    exit 0
fi
input="$(cd "$(dirname "$input")" && pwd)/$(basename "$input")"
for tool in vipsthumbnail vips hyperfine python3; do
    if ! command -v "$tool" >/dev/null; then
        echo "bench: $tool is missing (make bench installs libvips-tools, hyperfine and python3-venv)" >&2
        exit 1
    fi
done

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    log "building VignetteBench and vignette (release)"
    swift build -c release --product VignetteBench >&2
    swift build -c release --product vignette >&2
fi
bin="$(swift build -c release --show-bin-path)"
bench="$bin/VignetteBench"
vignette="$bin/vignette"

log "setting up the Python peers (Benchmarks/.venv)"
"$bench_dir/setup-venv.sh"
python="$bench_dir/.venv/bin/python"

# How busy the machine is just before measuring (the build above raises the load average, so
# sample /proc/stat over one second instead): other work makes the numbers noisy.
cpu_busy() {
    local a b
    a=($(head -1 /proc/stat)); sleep 1; b=($(head -1 /proc/stat))
    awk -v u="$(( (b[1]+b[2]+b[3]+b[6]+b[7]+b[8]) - (a[1]+a[2]+a[3]+a[6]+a[7]+a[8]) ))" \
        -v i="$(( (b[4]+b[5]) - (a[4]+a[5]) ))" 'BEGIN { printf "%.0f", 100 * u / (u + i) }'
}
busy="$(cpu_busy)"
if (( busy > 10 )); then
    log "warning: the CPUs are ${busy}% busy with other work; the numbers will be noisy"
fi

stamp="$(date -u +%Y%m%dT%H%M%SZ)"
out="$bench_dir/results/$stamp"
mkdir -p "$out"
ln -sfn "$stamp" "$bench_dir/results/latest"
results="$out/jpeg-task.jsonl"
: > "$results"

# --- machine and versions -------------------------------------------------------------------
{
    echo "{\"key\":\"nproc\",\"value\":\"$(nproc)\"}"
    echo "{\"key\":\"cpu\",\"value\":\"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')\"}"
    echo "{\"key\":\"memory\",\"value\":\"$(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)\"}"
    echo "{\"key\":\"source\",\"value\":\"$(git -C "$repo" describe --always --dirty 2>/dev/null || echo unknown)\"}"
    echo "{\"key\":\"busy\",\"value\":\"$busy\"}"
    echo "{\"key\":\"kernel\",\"value\":\"$(uname -sr)\"}"
    echo "{\"key\":\"vips\",\"value\":\"$(vips --version)\"}"
    echo "{\"key\":\"swift\",\"value\":\"$(swift --version 2>&1 | head -1 | sed 's/"//g')\"}"
    echo "{\"key\":\"hyperfine\",\"value\":\"$(hyperfine --version)\"}"
} > "$out/machine.jsonl"
"$bench" versions > "$out/vignette-versions.json"
"$python" - > "$out/python-versions.json" <<'PY'
import json, platform
import PIL, pyvips
from PIL import features
print(json.dumps({
    "python": platform.python_version(),
    "pyvips": pyvips.__version__,
    "pyvips_libvips": f"{pyvips.version(0)}.{pyvips.version(1)}.{pyvips.version(2)}",
    "pyvips_mode": "API (compiled cffi)" if pyvips.API_mode else "ABI",
    "Pillow": PIL.__version__,
    "Pillow_libjpeg_turbo": features.version("libjpeg_turbo"),
}))
PY

# --- in-process: sharp's JPEG task ------------------------------------------------------------
# Every case runs once per round, the rounds one after another, so that other work on the machine
# hits every tool alike; the report gives each case's median over the rounds. Around each case,
# /proc/stat and this shell's children's CPU time say how much CPU other processes used meanwhile.
clk_tck="$(getconf CLK_TCK)"
busy_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }
child_ticks() { awk '{ print $16 + $17 }' "/proc/$$/stat"; }
now_ns() { date +%s%N; }

# measure ROUND COMMAND...: runs a case, appends its JSON line with "round" and "other_cores".
measure() {
    local round="$1"; shift
    local b0 c0 t0 b1 c1 t1 line other
    b0="$(busy_ticks)"; c0="$(child_ticks)"; t0="$(now_ns)"
    line="$("$@")"
    b1="$(busy_ticks)"; c1="$(child_ticks)"; t1="$(now_ns)"
    other="$(awk -v b="$((b1 - b0))" -v c="$((c1 - c0))" -v t="$((t1 - t0))" -v hz="$clk_tck" \
        'BEGIN { o = (b - c) / hz / (t / 1e9); if (o < 0) o = 0; printf "%.2f", o }')"
    echo "{\"round\":$round,\"other_cores\":$other,${line#\{}" >> "$results"
}

for round in $(seq 1 "$rounds"); do
    for threads in $threads_list; do
        log "round $round/$rounds: vignette shrink-on-load, $threads thread(s) per image, ${seconds}s"
        measure "$round" env VIGNETTE_THREADS="$threads" "$bench" jpeg-task --input "$input" \
            --seconds "$seconds" --method shrinkOnLoad --output "$out/vignette-shrinkOnLoad-t$threads.jpg"
    done
    log "round $round/$rounds: vignette vips_thumbnail route, libvips' default threads, ${seconds}s"
    measure "$round" "$bench" jpeg-task --input "$input" --seconds "$seconds" --method vipsThumbnail \
        --output "$out/vignette-vipsThumbnail.jpg"
    log "round $round/$rounds: pyvips thumbnail_buffer, ${seconds}s"
    measure "$round" "$python" "$bench_dir/peers/pyvips_jpeg.py" --input "$input" --seconds "$seconds" \
        --output "$out/pyvips.jpg"
    log "round $round/$rounds: Pillow draft + thumbnail, ${seconds}s"
    measure "$round" "$python" "$bench_dir/peers/pillow_jpeg.py" --input "$input" --seconds "$seconds" \
        --output "$out/pillow.jpg"
done

# --- similarity to libvips' own thumbnail -----------------------------------------------------
log "dHash against vipsthumbnail's output"
vipsthumbnail "$input" -s 720x588 -o "$out/vipsthumbnail.jpg[Q=80]"
: > "$out/dhash.jsonl"
for candidate in "$out"/vignette-*.jpg "$out/pyvips.jpg" "$out/pillow.jpg"; do
    "$bench" dhash "$candidate" "$out/vipsthumbnail.jpg" >> "$out/dhash.jsonl"
done

# --- whole process: vignette thumbnail vs vipsthumbnail ---------------------------------------
log "hyperfine: vignette thumbnail vs vipsthumbnail, $runs runs each"
whole_v="$(mktemp -d)"
whole_t="$(mktemp -d)"
trap 'rm -rf "$whole_v" "$whole_t"' EXIT
hyperfine --style basic --shell=none --warmup 3 --runs "$runs" --export-json "$out/hyperfine.json" \
    -n "vignette thumbnail" "$vignette thumbnail '$input' --size 720x588 --quality 80 --out '$whole_v'" \
    -n "vipsthumbnail" "vipsthumbnail '$input' -s 720x588 -o '$whole_t/%s.jpg[Q=80]'" >&2

# --- report -------------------------------------------------------------------------------------
log "HEIC, AVIF and WebP encoding of $(basename "$input") at several speeds"
"$bench" encoder-speeds --input "$input" --quality 50 --runs 1 > "$out/encoder-speeds.jsonl"
log "the pipeline: memory-cache hit, 100-way coalescing, disk-cache hit"
"$bench" pipeline --input "$input" --runs 20 > "$out/pipeline.jsonl"

"$python" - "$out" "$seconds" "$rounds" "$runs" "$input" > "$out/report.md" <<'PY'
import json, os, statistics, sys

out, seconds, rounds, runs, source = sys.argv[1:6]

def lines(name):
    with open(os.path.join(out, name)) as f:
        return [json.loads(line) for line in f if line.strip()]

machine = {row["key"]: row["value"] for row in lines("machine.jsonl")}
vignette_versions = lines("vignette-versions.json")[0]
python_versions = lines("python-versions.json")[0]
dhash = lines("dhash.jsonl")
with open(os.path.join(out, "hyperfine.json")) as f:
    whole = {r["command"]: r for r in json.load(f)["results"]}

def label(row):
    if row["tool"].startswith("vignette"):
        return f'{row["tool"]}, {row["threads"]} thread{"s" if row["threads"] != 1 else ""}'
    if row["tool"] == "pyvips":
        return f'pyvips (thumbnail_buffer), {row["threads"]} threads'
    return "Pillow (draft + thumbnail, 1 thread)"

# One row per case, in the order they ran: the median ops/s over the rounds.
cases = {}
for row in lines("jpeg-task.jsonl"):
    cases.setdefault(label(row), []).append(row)
rows = []
for name, runs_of_case in cases.items():
    rates = [r["ops_per_sec"] for r in runs_of_case]
    rows.append({"label": name, "tool": runs_of_case[0]["tool"], "threads": runs_of_case[0].get("threads"),
                 "rate": statistics.median(rates), "rates": rates,
                 "other": max(r["other_cores"] for r in runs_of_case)})
pillow = next(r for r in rows if r["tool"] == "Pillow")["rate"]
pyvips = next(r for r in rows if r["tool"] == "pyvips")["rate"]

print(f"## Sharp's JPEG task: {os.path.basename(source)} (2725×2225) inside 720×588, Lanczos 3, JPEG Q80")
print()
print(f"One operation at a time, in-process, {seconds} s per case after a 1 s warm-up; {rounds} round(s) of all")
print("cases interleaved in one run; ops/s is the median over the rounds. \"Other work\" is the most CPU")
print("(in cores) that other processes used while a case ran, in any round.")
print()
print("| tool | ops/s | vs Pillow | vs pyvips | ops/s in each round | other work |")
print("|---|---:|---:|---:|---|---:|")
for r in rows:
    each = ", ".join(f"{x:.1f}" for x in r["rates"])
    print(f'| {r["label"]} | {r["rate"]:.1f} | {r["rate"] / pillow:.2f}× | {r["rate"] / pyvips:.2f}× | {each} | {r["other"]:.2f} |')
print()

print("## Similarity to libvips' own `vipsthumbnail -s 720x588` (64-bit dHash distance, ≤ 5 is similar)")
print()
print("| output | dHash distance |")
print("|---|---:|")
for d in dhash:
    print(f'| {os.path.basename(d["a"])} | {d["distance"]} |')
print()

tv, tt = whole["vignette thumbnail"], whole["vipsthumbnail"]
ratio = tv["mean"] / tt["mean"]
print(f"## Whole process (hyperfine, no shell, 3 warm-up runs, {runs} runs each)")
print()
print("| command | mean | σ | median | min |")
print("|---|---:|---:|---:|---:|")
for name, r in (("`vignette thumbnail FILE --size 720x588 --quality 80 --out DIR`", tv),
                ("`vipsthumbnail FILE -s 720x588 -o DIR/%s.jpg[Q=80]`", tt)):
    print(f'| {name} | {r["mean"] * 1000:.1f} ms | {r["stddev"] * 1000:.1f} ms | {r["median"] * 1000:.1f} ms | {r["min"] * 1000:.1f} ms |')
print()
print(f'vignette / vipsthumbnail = **{ratio:.2f}×** the mean time ({tv["median"] / tt["median"]:.2f}× the median, '
      f'{tv["min"] / tt["min"]:.2f}× the minimum).')
print()

vignette_rows = [r for r in rows if r["tool"] == "vignette (shrink-on-load)"]
best = max(vignette_rows, key=lambda r: r["rate"])
default_row = next((r for r in vignette_rows if r["threads"] == int(machine["nproc"])), best)
shrink_dhash = [d["distance"] for d in dhash if "shrinkOnLoad" in os.path.basename(d["a"])]
def verdict(ok):
    return "met" if ok else "**not met**"
print("## Targets (issue 2)")
print()
print(f'- ≥ 1.6× Pillow: {best["rate"] / pillow:.2f}× ({best["label"]}) — {verdict(best["rate"] >= 1.6 * pillow)}; '
      f'at libvips\' default of {machine["nproc"]} threads {default_row["rate"] / pillow:.2f}×')
print(f'- ≥ 2× pyvips: {best["rate"] / pyvips:.2f}× — {verdict(best["rate"] >= 2 * pyvips)}; '
      f'at the default threads {default_row["rate"] / pyvips:.2f}×')
print(f'- output within dHash 5 of vipsthumbnail\'s: distance {max(shrink_dhash)} — {verdict(max(shrink_dhash) <= 5)}')
print(f'- whole process ≤ 0.75× vipsthumbnail\'s time: {ratio:.2f}× — {verdict(ratio <= 0.75)}')
print()

print("## Encoder speed: HEIC (x265) and AVIF (aom) through libheif, WebP through libwebp, quality 50")
print()
print(f"The whole {os.path.basename(source)} (6 MP), one encode each, PSNR of the decoded result against the source.")
print("`HEIFOptions.speed` 0–9: x265 preset `placebo` … `ultrafast` (3 = `slow`, libheif's default), aom `speed`.")
print()
print("| case | seconds | bytes | PSNR |")
print("|---|---:|---:|---:|")
for e in lines("encoder-speeds.jsonl"):
    print(f'| {e["case"]} | {e["seconds"]:.2f} | {e["bytes"]:,} | {e["psnr_db"]:.2f} dB |')
print()

print("## The pipeline (issue 3)")
print()
pipeline_rows = {p["case"]: p for p in lines("pipeline.jsonl")}
hit = next(p for c, p in pipeline_rows.items() if c.startswith("memory"))
co = next(p for c, p in pipeline_rows.items() if c.startswith("100"))
disk = next(p for c, p in pipeline_rows.items() if c.startswith("256"))
print("| case | result | target |")
print("|---|---|---|")
print(f'| memory-cache hit through `image(for:)` ({hit["calls"]:,} calls) | {hit["microseconds"]:.2f} µs a call | ≤ 2 µs |')
print(f'| 100 concurrent identical requests (256-px thumbnail of {os.path.basename(source)}) vs one | {co["hundred_ms"]:.1f} ms vs {co["single_ms"]:.1f} ms = {co["ratio"]:.2f}× | ≤ 1.2×, one decode |')
print(f'| 256-px thumbnail: disk-cache hit vs made from the 6-MP JPEG | {disk["disk_hit_ms"]:.2f} ms vs {disk["made_ms"]:.1f} ms: the hit is {disk["ratio"]:.1f}× faster | report |')
print()

print("## Machine and versions")
print()
print(f'- {machine["nproc"]} CPUs ({machine["cpu"]}), {machine["memory"]} RAM, {machine["kernel"]}')
print(f'- CPU used by other work in the second before measuring: {machine["busy"]}%')
print(f'- {machine["swift"]}; Vignette source `{machine["source"]}` (`-dirty`: with uncommitted changes)')
print(f'- Vignette linked against libvips {vignette_versions["libvips"]}, libwebp {vignette_versions["libwebp"]}, '
      f'libheif {vignette_versions["libheif"]}; `vips --version`: {machine["vips"]}')
print(f'- Python {python_versions["python"]}: pyvips {python_versions["pyvips"]} ({python_versions["pyvips_mode"]}, '
      f'libvips {python_versions["pyvips_libvips"]}), Pillow {python_versions["Pillow"]} '
      f'(its bundled libjpeg-turbo {python_versions["Pillow_libjpeg_turbo"]})')
print(f'- {machine["hyperfine"]}')
PY

cat "$out/report.md"
log "raw results in ${out#"$repo"/}"
