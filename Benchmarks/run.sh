#!/usr/bin/env bash
# Vignette's speed benchmark: sharp's JPEG and PNG tasks, in-process, beside pyvips and Pillow
# measured in the same run; the similarity check against libvips' own vipsthumbnail; whole-process
# comparisons under hyperfine (one thumbnail vs vipsthumbnail; the corpus batch vs a vipsthumbnail
# loop and ImageMagick's mogrify); HEIC/AVIF/WebP encoding of a 12-MP image vs heif-enc and cwebp;
# the pipeline's caches; peak memory for the 280-MP giant-image.jpg; a plot of the in-process rates.
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
#   BENCH_PNG_SECONDS, BENCH_PNG_ROUNDS   the same for the PNG task and for sharp's JPEG task written
#                   as WebP and as AVIF (default 5 s, 2 rounds).
#   BENCH_BATCH_RUNS  hyperfine runs of each corpus-batch command (default 5; warm-up 1).
#   BENCH_ENCODE_RUNS runs of each 12-MP encode, Vignette's and the CLI tools' (default 3).
#   BENCH_PHOTOS    photos in the files → files throughput case (default 64: links to sharp's photo).
#   BENCH_THROUGHPUT_ROUNDS  rounds of the throughput cases, interleaved; median shown (default 3).
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
png_seconds="${BENCH_PNG_SECONDS:-5}"
png_rounds="${BENCH_PNG_ROUNDS:-2}"
batch_runs="${BENCH_BATCH_RUNS:-5}"
encode_runs="${BENCH_ENCODE_RUNS:-3}"
photo_count="${BENCH_PHOTOS:-64}"
throughput_rounds="${BENCH_THROUGHPUT_ROUNDS:-3}"
encode_quality=50
corpus="${CORPUS:-../shared/corpus}"
input="$corpus/2569067123_aca715a2ee_o.jpg"

log() { echo "bench: $*" >&2; }

if [[ ! -f "$input" ]]; then
    echo "bench: skipped: $input is absent (the corpus lives in ../shared/corpus beside the checkout; set CORPUS to point elsewhere)"
    exit 0
fi
input="$(cd "$(dirname "$input")" && pwd)/$(basename "$input")"
corpus="$(dirname "$input")"
png_input="$corpus/alpha-premultiply-2048x1536-paper.png"
giant="$corpus/giant-image.jpg"
# ImageMagick 6's mogrify by its versioned name: `convert` on PATH may be a stand-in.
mogrify="$(command -v mogrify-im6.q16 || echo /usr/bin/mogrify)"
for tool in vipsthumbnail vips hyperfine python3 heif-enc cwebp curl "$mogrify"; do
    if ! command -v "$tool" >/dev/null; then
        echo "bench: $tool is missing (make bench installs libvips-tools, hyperfine, python3-venv, libheif-examples, webp, curl and imagemagick)" >&2
        exit 1
    fi
done

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    log "building VignetteBench and vignette (release)"
    # As `make release` builds it (the same flags, or everything is compiled again).
    swift build -c release --static-swift-stdlib --product VignetteBench >&2
    swift build -c release --static-swift-stdlib --product vignette >&2
fi
bin="$(swift build -c release --static-swift-stdlib --show-bin-path)"
bench="$bin/VignetteBench"
vignette="$bin/vignette"

log "setting up the Python peers (Benchmarks/.venv, .venv-simd, .venv-vips818)"
"$bench_dir/setup-venv.sh"
python="$bench_dir/.venv/bin/python"
simd_python="$bench_dir/.venv-simd/bin/python"
vips818_python="$bench_dir/.venv-vips818/bin/python"

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
    echo "{\"key\":\"imagemagick\",\"value\":\"$("$mogrify" -version | head -1 | sed 's/^Version: //; s/ https.*//')\"}"
    echo "{\"key\":\"heif_enc\",\"value\":\"$(dpkg-query -W -f '${Version}' libheif-examples 2>/dev/null || echo unknown)\"}"
    echo "{\"key\":\"cwebp\",\"value\":\"$(cwebp -version 2>&1 | head -1)\"}"
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
"$simd_python" - > "$out/python-simd-versions.json" <<'PY'
import json
import PIL
from PIL import features
print(json.dumps({"Pillow-SIMD": PIL.__version__, "libjpeg_turbo": features.version("libjpeg_turbo")}))
PY
"$vips818_python" - > "$out/python-vips818-versions.json" <<'PY'
import json
import pyvips
print(json.dumps({"pyvips": pyvips.__version__,
                  "libvips": f"{pyvips.version(0)}.{pyvips.version(1)}.{pyvips.version(2)}"}))
PY

# --- in-process: sharp's JPEG task ------------------------------------------------------------
# Every case runs once per round, the rounds one after another, so that other work on the machine
# hits every tool alike; the report gives each case's median over the rounds. Around each case,
# /proc/stat and this shell's children's CPU time say how much CPU other processes used meanwhile.
clk_tck="$(getconf CLK_TCK)"
busy_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }
child_ticks() { awk '{ print $16 + $17 }' "/proc/$$/stat"; }
now_ns() { date +%s%N; }

# measure ROUND COMMAND...: runs a case, appends its JSON line with "round" and "other_cores" to
# the file $results.
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
    log "round $round/$rounds: Pillow-SIMD draft + thumbnail, ${seconds}s"
    measure "$round" "$simd_python" "$bench_dir/peers/pillow_jpeg.py" --tool Pillow-SIMD --input "$input" \
        --seconds "$seconds" --output "$out/pillow-simd.jpg"
    log "round $round/$rounds: pyvips thumbnail_buffer on libvips 8.18 (pyvips-binary), ${seconds}s"
    measure "$round" "$vips818_python" "$bench_dir/peers/pyvips_jpeg.py" --tool "pyvips 8.18" --input "$input" \
        --seconds "$seconds" --output "$out/pyvips818.jpg"
done

# --- in-process: sharp's PNG task ------------------------------------------------------------
results="$out/png-task.jsonl"
: > "$results"
for round in $(seq 1 "$png_rounds"); do
    for threads in $threads_list; do
        log "PNG round $round/$png_rounds: vignette, $threads thread(s) per image, ${png_seconds}s"
        measure "$round" env VIGNETTE_THREADS="$threads" "$bench" png-task --input "$png_input" \
            --seconds "$png_seconds" --width 720 --height 540 --compression 6 \
            --output "$out/png-vignette-t$threads.png"
    done
    log "PNG round $round/$png_rounds: pyvips thumbnail_buffer, ${png_seconds}s"
    measure "$round" "$python" "$bench_dir/peers/pyvips_png.py" --input "$png_input" --seconds "$png_seconds" \
        --output "$out/png-pyvips.png"
    log "PNG round $round/$png_rounds: Pillow thumbnail, ${png_seconds}s"
    measure "$round" "$python" "$bench_dir/peers/pillow_png.py" --input "$png_input" --seconds "$png_seconds" \
        --output "$out/png-pillow.png"
    log "PNG round $round/$png_rounds: Pillow-SIMD thumbnail, ${png_seconds}s"
    measure "$round" "$simd_python" "$bench_dir/peers/pillow_png.py" --tool Pillow-SIMD --input "$png_input" \
        --seconds "$png_seconds" --output "$out/png-pillow-simd.png"
    log "PNG round $round/$png_rounds: pyvips on libvips 8.18, ${png_seconds}s"
    measure "$round" "$vips818_python" "$bench_dir/peers/pyvips_png.py" --tool "pyvips 8.18" --input "$png_input" \
        --seconds "$png_seconds" --output "$out/png-pyvips818.png"
done

# --- in-process: sharp's JPEG task written as WebP (q80, method 4) and AVIF (q50, aom speed 9) ----
# The thumbnail-size encoders (issue 14): the same decode and resize, each tool's WebP and AVIF
# writer at equal settings. Pillow-SIMD's build has no AVIF (libavif is not linked), so it has
# WebP rows only. Quality scales differ between libheif and libavif, so the report gives each
# output's size and PSNR against a reference resize beside the rate.
results="$out/thumbnail-formats.jsonl"
: > "$results"
simd_has_avif="$("$simd_python" -c 'from PIL import features; print(int(bool(features.check("avif"))))' 2>/dev/null || echo 0)"
for round in $(seq 1 "$png_rounds"); do
    for format in webp avif; do
        quality=80; [[ "$format" == avif ]] && quality=50
        for threads in $threads_list; do
            log "$format round $round/$png_rounds: vignette, $threads thread(s) per image, ${png_seconds}s"
            measure "$round" env VIGNETTE_THREADS="$threads" "$bench" jpeg-task --input "$input" --format "$format" \
                --quality "$quality" --seconds "$png_seconds" --output "$out/$format-vignette-t$threads.$format"
        done
        log "$format round $round/$png_rounds: pyvips, Pillow, Pillow-SIMD, pyvips 8.18, ${png_seconds}s each"
        measure "$round" "$python" "$bench_dir/peers/pyvips_jpeg.py" --input "$input" --format "$format" \
            --quality "$quality" --seconds "$png_seconds" --output "$out/$format-pyvips.$format"
        measure "$round" "$python" "$bench_dir/peers/pillow_jpeg.py" --input "$input" --format "$format" \
            --quality "$quality" --seconds "$png_seconds" --output "$out/$format-pillow.$format"
        if [[ "$format" == webp || "$simd_has_avif" == 1 ]]; then
            measure "$round" "$simd_python" "$bench_dir/peers/pillow_jpeg.py" --tool Pillow-SIMD --input "$input" \
                --format "$format" --quality "$quality" --seconds "$png_seconds" --output "$out/$format-pillow-simd.$format"
        fi
        measure "$round" "$vips818_python" "$bench_dir/peers/pyvips_jpeg.py" --tool "pyvips 8.18" --input "$input" \
            --format "$format" --quality "$quality" --seconds "$png_seconds" --output "$out/$format-pyvips818.$format"
    done
done
log "PSNR of each WebP and AVIF output against a reference resize (libvips Lanczos 3 of the full decode)"
"$python" - "$input" "$out" > "$out/thumbnail-formats-quality.jsonl" <<'PY'
import glob, json, math, os, sys
import pyvips
source, out = sys.argv[1:3]
full = pyvips.Image.new_from_file(source)
for path in sorted(glob.glob(os.path.join(out, "webp-*.webp")) + glob.glob(os.path.join(out, "avif-*.avif"))):
    image = pyvips.Image.new_from_file(path)
    image = image[:3] if image.bands > 3 else image
    reference = full.resize(image.width / full.width, vscale=image.height / full.height, kernel="lanczos3")
    reference = reference.crop(0, 0, image.width, image.height)
    diff = image.cast("float") - reference.cast("float")
    mse = (diff * diff).avg()
    print(json.dumps({"file": os.path.basename(path), "bytes": os.path.getsize(path),
                      "psnr": round(10 * math.log10(255 * 255 / mse), 2) if mse > 0 else None}))
PY

# --- similarity to libvips' own thumbnail -----------------------------------------------------
log "dHash against vipsthumbnail's output"
vipsthumbnail "$input" -s 720x588 -o "$out/vipsthumbnail.jpg[Q=80]"
: > "$out/dhash.jsonl"
for candidate in "$out"/vignette-*.jpg "$out/pyvips.jpg" "$out/pyvips818.jpg" "$out/pillow.jpg" "$out/pillow-simd.jpg"; do
    "$bench" dhash "$candidate" "$out/vipsthumbnail.jpg" >> "$out/dhash.jsonl"
done

# --- whole process: vignette thumbnail vs vipsthumbnail ---------------------------------------
log "hyperfine: vignette thumbnail vs vipsthumbnail, $runs runs each"
whole_v="$(mktemp -d)"
whole_t="$(mktemp -d)"
batch_dir="$(mktemp -d)"
trap 'rm -rf "$whole_v" "$whole_t" "$batch_dir"' EXIT
hyperfine --style basic --shell=none --warmup 3 --runs "$runs" --export-json "$out/hyperfine.json" \
    -n "vignette thumbnail" "$vignette thumbnail '$input' --size 720x588 --quality 80 --out '$whole_v'" \
    -n "vipsthumbnail" "vipsthumbnail '$input' -s 720x588 -o '$whole_t/%s.jpg[Q=80]'" >&2

# --- whole process: the corpus batch -------------------------------------------------------------
# Every loadable corpus image: MANIFEST.tsv rows whose libvips header is not an ERROR and that do
# not fail under fail_on, without the 65536² PNG bomb (no shrink-on-load for PNG: 30 s in libvips).
# Every tool gets the same explicit file list.
mapfile -t batch_files < <(awk -F'\t' -v dir="$corpus" \
    'NR > 1 && $NF !~ /^ERROR/ && $4 !~ /fails with fail_on/ && $1 != "65536-uint32-limit.png" { print dir "/" $1 }' \
    "$corpus/MANIFEST.tsv")
printf '%s\n' "${batch_files[@]}" > "$out/batch-files.txt"
batch_q="$(printf '%q ' "${batch_files[@]}")"
log "hyperfine: the corpus batch (${#batch_files[@]} images) to 256 px, $batch_runs runs each"
hyperfine --style basic --shell=bash -i --warmup 1 --runs "$batch_runs" --export-json "$out/batch.json" \
    --prepare "rm -rf '$batch_dir/out' && mkdir -p '$batch_dir/out'" \
    -n "vignette --jobs 1" "'$vignette' thumbnail $batch_q --size 256 --out '$batch_dir/out' --jobs 1" \
    -n "vignette --jobs 2" "'$vignette' thumbnail $batch_q --size 256 --out '$batch_dir/out' --jobs 2" \
    -n "vipsthumbnail loop" "for f in $batch_q; do vipsthumbnail \"\$f\" -s 256 -o '$batch_dir/out/%s.jpg'; done" \
    -n "mogrify -thumbnail" "'$mogrify' -path '$batch_dir/out' -thumbnail 256x256 $batch_q" >&2
# One more run of each into a folder of its own: how many output files each wrote.
: > "$out/batch-outputs.jsonl"
count_outputs() {
    local name="$1"; shift
    rm -rf "$batch_dir/count" && mkdir -p "$batch_dir/count"
    bash -c "$*" > /dev/null 2>&1 || true
    echo "{\"command\":\"$name\",\"outputs\":$(find "$batch_dir/count" -type f | wc -l)}" >> "$out/batch-outputs.jsonl"
}
count_outputs "vignette" "'$vignette' thumbnail $batch_q --size 256 --out '$batch_dir/count' --jobs 2"
count_outputs "vipsthumbnail loop" "for f in $batch_q; do vipsthumbnail \"\$f\" -s 256 -o '$batch_dir/count/%s.jpg'; done"
count_outputs "mogrify -thumbnail" "'$mogrify' -path '$batch_dir/count' -thumbnail 256x256 $batch_q"

# --- files → files throughput: sharp's task on BENCH_PHOTOS photos, 1 and 2 workers (issue 14) ----
# The photos are links to sharp's input under distinct names (the corpus has one such photo; the
# page cache holds it, so this measures decoding and encoding, not the disk). Each case is a whole
# process: `vignette thumbnail --jobs N`, or peers/throughput.py's multiprocessing.Pool of N
# workers; peers/timed.py gives wall time and the CPU time of the process and its children. Each
# command runs once untimed just before it is timed, as hyperfine's warm-up does for the batch
# above: this VM's page cache lets go of a binary's pages within seconds (`vignette --help`: 28 ms
# with them cached, 140-190 ms after `drop_caches`, most of it waiting for the disk), and a start-up
# paid again in every 0.5-s case would measure the disk rather than the thumbnails.
photos="$batch_dir/photos"
mkdir -p "$photos"
for i in $(seq -w 1 "$photo_count"); do ln -sf "$input" "$photos/photo-$i.jpg"; done
photo_files=("$photos"/photo-*.jpg)
: > "$out/throughput.jsonl"
throughput() {
    local label="$1" workers="$2"; shift 2
    # The warm-up run's failure is not the run's: the timed run records its exit status.
    rm -rf "$batch_dir/tp" && mkdir -p "$batch_dir/tp"
    "$@" > /dev/null 2>&1 || true
    rm -rf "$batch_dir/tp" && mkdir -p "$batch_dir/tp"
    "$python" "$bench_dir/peers/timed.py" "$label" "$workers" "${#photo_files[@]}" "$@" >> "$out/throughput.jsonl"
}
for round in $(seq 1 "$throughput_rounds"); do
    for workers in 1 2; do
        log "throughput round $round/$throughput_rounds: ${#photo_files[@]} photos, $workers worker(s)"
        throughput vignette "$workers" "$vignette" thumbnail "${photo_files[@]}" --size 720x588 --quality 80 \
            --out "$batch_dir/tp" --jobs "$workers"
        throughput Pillow-SIMD "$workers" "$simd_python" "$bench_dir/peers/throughput.py" --library pillow \
            --workers "$workers" --out "$batch_dir/tp" "${photo_files[@]}"
        throughput Pillow "$workers" "$python" "$bench_dir/peers/throughput.py" --library pillow \
            --workers "$workers" --out "$batch_dir/tp" "${photo_files[@]}"
        throughput "pyvips 8.18" "$workers" "$vips818_python" "$bench_dir/peers/throughput.py" --library pyvips \
            --workers "$workers" --out "$batch_dir/tp" "${photo_files[@]}"
        throughput pyvips "$workers" "$python" "$bench_dir/peers/throughput.py" --library pyvips \
            --workers "$workers" --out "$batch_dir/tp" "${photo_files[@]}"
    done
done

# --- HEIC, AVIF and WebP encoding of a 12-MP image -----------------------------------------------
# The photo scaled by √2 (3854×3147), made once per run as PNG: the input heif-enc and cwebp read.
big="$batch_dir/photo-12mp.png"
log "encoding a 12-MP image: Vignette vs heif-enc and cwebp at quality $encode_quality, $encode_runs runs each"
vips resize "$input" "$big" 1.4142
: > "$out/encode.jsonl"
for format in heic avif webp; do
    "$bench" encode --input "$big" --format "$format" --quality "$encode_quality" --runs "$encode_runs" \
        --output "$batch_dir/vignette.$format" >> "$out/encode.jsonl"
done
hyperfine --style basic --shell=none --runs "$encode_runs" --export-json "$out/encode-cli.json" \
    -n "heif-enc" "heif-enc -q $encode_quality '$big' -o '$batch_dir/heif-enc.heic'" \
    -n "heif-enc -A" "heif-enc -A -q $encode_quality '$big' -o '$batch_dir/heif-enc.avif'" \
    -n "cwebp" "cwebp -quiet -q $encode_quality '$big' -o '$batch_dir/cwebp.webp'" >&2
for f in heif-enc.heic heif-enc.avif cwebp.webp; do
    echo "{\"file\":\"$f\",\"bytes\":$(stat -c %s "$batch_dir/$f")}"
done > "$out/encode-cli-bytes.jsonl"

# --- peak resident memory: one 256-px thumbnail of the 280-MP giant-image.jpg --------------------
# ru_maxrss of the one child a fresh Python process runs (needs no /usr/bin/time); 3 runs each.
log "peak memory for a 256-px thumbnail of giant-image.jpg"
: > "$out/memory.jsonl"
mkdir -p "$batch_dir/giant"
for i in 1 2 3; do
    for tool in vignette vipsthumbnail; do
        if [[ $tool == vignette ]]; then
            cmd=("$vignette" thumbnail "$giant" --size 256 --out "$batch_dir/giant")
        else
            cmd=(vipsthumbnail "$giant" -s 256 -o "$batch_dir/giant/%s.jpg")
        fi
        "$python" - "$tool" "${cmd[@]}" >> "$out/memory.jsonl" <<'PY'
import json, resource, subprocess, sys, time
start = time.perf_counter()
status = subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
elapsed = time.perf_counter() - start
peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"tool": sys.argv[1], "max_rss_kb": peak_kb, "seconds": round(elapsed, 3), "status": status}))
PY
    done
done

# --- report -------------------------------------------------------------------------------------
log "HEIC, AVIF and WebP encoding of $(basename "$input") at several speeds"
"$bench" encoder-speeds --input "$input" --quality 50 --runs 1 > "$out/encoder-speeds.jsonl"
log "the pipeline: memory-cache hit, 100-way coalescing, disk-cache hit"
"$bench" pipeline --input "$input" --runs 20 > "$out/pipeline.jsonl"
log "the shared cache: Redis hit vs disk hit vs miss, a second instance, an outage (redis-server on 127.0.0.1)"
: > "$out/shared-cache.jsonl"
if command -v redis-server > /dev/null; then
    redis_port="$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    redis_dir="$(mktemp -d)"
    redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no --dir "$redis_dir" > /dev/null &
    redis_pid=$!
    for _ in $(seq 100); do redis-cli -p "$redis_port" ping > /dev/null 2>&1 && break; sleep 0.05; done
    "$bench" shared-cache --input "$input" --redis "redis://127.0.0.1:$redis_port" --runs 30 \
        > "$out/shared-cache.jsonl" 2> /dev/null || log "shared-cache case failed"
    kill "$redis_pid"; wait "$redis_pid" 2> /dev/null || true
    rm -rf "$redis_dir"
else
    log "redis-server is not installed: the shared-cache case is skipped (make bench installs it)"
fi
log "over HTTP on 127.0.0.1: previews of a progressive JPEG, 100 small fetches, each beside curl"
"$bench" http --input "$input" --small "$repo/Fixtures/baseline.jpg" --runs 10 > "$out/http.jsonl"

log "plotting the in-process rates"
"$python" "$bench_dir/plot.py" "$out" "$out/throughput.png"
cp "$out/throughput.png" "$bench_dir/throughput.png"

"$python" - "$out" "$seconds" "$rounds" "$runs" "$input" "$png_seconds" "$png_rounds" "$batch_runs" \
    "$encode_runs" > "$out/report.md" <<'PY'
import json, os, statistics, sys

out, seconds, rounds, runs, source, png_seconds, png_rounds, batch_runs, encode_runs = sys.argv[1:10]

def lines(name):
    with open(os.path.join(out, name)) as f:
        return [json.loads(line) for line in f if line.strip()]

machine = {row["key"]: row["value"] for row in lines("machine.jsonl")}
vignette_versions = lines("vignette-versions.json")[0]
python_versions = lines("python-versions.json")[0]
dhash = lines("dhash.jsonl")
with open(os.path.join(out, "hyperfine.json")) as f:
    whole = {r["command"]: r for r in json.load(f)["results"]}

def label(row, pillow_label="Pillow (draft + thumbnail, 1 thread)"):
    if row["tool"].startswith("vignette"):
        tool = "vignette" if row.get("format") == "png" else row["tool"]
        return f'{tool}, {row["threads"]} thread{"s" if row["threads"] != 1 else ""}'
    if row["tool"] == "pyvips":
        return f'pyvips (thumbnail_buffer), {row["threads"]} threads'
    if row["tool"] == "pyvips 8.18":
        return f'pyvips on libvips {row.get("libvips", "8.18")} (pyvips-binary), {row["threads"]} threads'
    if row["tool"] == "Pillow-SIMD":
        return pillow_label.replace("Pillow", "Pillow-SIMD")
    return pillow_label

def task_rows(name, pillow_label):
    """One row per case, in the order they ran: the median ops/s over the rounds."""
    cases = {}
    for row in lines(name):
        cases.setdefault(label(row, pillow_label), []).append(row)
    rows = []
    for case, runs_of_case in cases.items():
        rates = [r["ops_per_sec"] for r in runs_of_case]
        rows.append({"label": case, "tool": runs_of_case[0]["tool"], "threads": runs_of_case[0].get("threads"),
                     "rate": statistics.median(rates), "rates": rates,
                     "other": max(r["other_cores"] for r in runs_of_case)})
    return rows

def rate_table(rows):
    pillow = next(r for r in rows if r["tool"] == "Pillow")["rate"]
    pyvips = next(r for r in rows if r["tool"] == "pyvips")["rate"]
    simd = next(r for r in rows if r["tool"] == "Pillow-SIMD")["rate"]
    print("| tool | ops/s | vs Pillow-SIMD | vs Pillow | vs pyvips | ops/s in each round | other work |")
    print("|---|---:|---:|---:|---:|---|---:|")
    for r in rows:
        each = ", ".join(f"{x:.1f}" for x in r["rates"])
        print(f'| {r["label"]} | {r["rate"]:.1f} | {r["rate"] / simd:.2f}× | {r["rate"] / pillow:.2f}× | '
              f'{r["rate"] / pyvips:.2f}× | {each} | {r["other"]:.2f} |')
    print()
    return pillow, pyvips

rows = task_rows("jpeg-task.jsonl", "Pillow (draft + thumbnail, 1 thread)")
png_rows = task_rows("png-task.jsonl", "Pillow (thumbnail, 1 thread)")

print(f"## Sharp's JPEG task: {os.path.basename(source)} (2725×2225) inside 720×588, Lanczos 3, JPEG Q80")
print()
print(f"One operation at a time, in-process, {seconds} s per case after a 1 s warm-up; {rounds} round(s) of all")
print("cases interleaved in one run; ops/s is the median over the rounds. \"Other work\" is the most CPU")
print("(in cores) that other processes used while a case ran, in any round.")
print()
pillow, pyvips = rate_table(rows)

print("## Sharp's PNG task: alpha-premultiply-2048x1536-paper.png (RGBA) inside 720×540, Lanczos 3, PNG zlib 6")
print()
print(f"The same protocol, {png_seconds} s per case after a 1 s warm-up, {png_rounds} round(s). Every tool")
print("premultiplies alpha around the resize; none does shrink-on-load (PNG has none).")
print()
rate_table(png_rows)

quality = {q["file"]: q for q in lines("thumbnail-formats-quality.jsonl")}
def output_file(row, fmt):
    """The file a thumbnail-formats row wrote (as run.sh names them)."""
    names = {"pyvips": "pyvips", "Pillow": "pillow", "Pillow-SIMD": "pillow-simd", "pyvips 8.18": "pyvips818"}
    tool = names.get(row["tool"], f'vignette-t{row.get("threads")}')
    return f"{fmt}-{tool}.{fmt}"
format_rows = lines("thumbnail-formats.jsonl")
print("## Sharp's JPEG task written as WebP (q80, method 4) and as AVIF (q50, aom speed 9, 4:2:0)")
print()
print(f"The same protocol and photo as the JPEG task, {png_seconds} s per case, {png_rounds} round(s); only the")
print("encoder differs. Vignette writes both from the resized Y/Cb/Cr planes (the planar route);")
print("Pillow-SIMD has no AVIF encoder in its build. Quality scales differ between libheif (Vignette,")
print("pyvips) and libavif (Pillow): bytes and PSNR against a reference resize (libvips Lanczos 3 of the")
print("full decode) say what each output is.")
print()
print("| format | tool | ops/s | vs Pillow-SIMD | vs Pillow | vs pyvips 8.18 | bytes | PSNR (dB) | ops/s in each round |")
print("|---|---|---:|---:|---:|---:|---:|---:|---|")
for fmt in ("webp", "avif"):
    cases = {}
    for row in format_rows:
        if row.get("format") == fmt:
            cases.setdefault(label(row), []).append(row)
    medians = {case: statistics.median(r["ops_per_sec"] for r in rs) for case, rs in cases.items()}
    def rate_of(tool):
        return next((medians[c] for c, rs in cases.items() if rs[0]["tool"] == tool), None)
    simd, pil, v818 = rate_of("Pillow-SIMD"), rate_of("Pillow"), rate_of("pyvips 8.18")
    for case, rs in cases.items():
        rate = medians[case]
        ratio = lambda base: f"{rate / base:.2f}×" if base else "—"
        q = quality.get(output_file(rs[0], fmt), {})
        each = ", ".join(f'{r["ops_per_sec"]:.1f}' for r in rs)
        print(f'| {fmt.upper()} | {case} | {rate:.1f} | {ratio(simd)} | {ratio(pil)} | {ratio(v818)} | '
              f'{q.get("bytes", "")} | {q.get("psnr", "")} | {each} |')
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

shared_rows = lines("shared-cache.jsonl")
if shared_rows:
    tiers, second, outage = shared_rows
    print("## The shared cache on Redis (issue 12)")
    print()
    print(f"VignetteBench shared-cache: a redis-server on 127.0.0.1; {os.path.basename(source)} to a 256-px JPEG (q80), medians.")
    print()
    print("| case | result | target |")
    print("|---|---|---|")
    print(f'| one result: Redis hit vs local disk hit vs miss | {tiers["redis_hit_ms"]:.2f} ms vs {tiers["disk_hit_ms"]:.2f} ms vs {tiers["miss_ms"]:.1f} ms | report |')
    print(f'| a second instance serving what the first made (8 at a time) vs making it | {second["redis_hits_per_second"]:.0f}/s vs {second["made_per_second"]:.1f}/s = {second["ratio"]:.0f}× | report |')
    base = outage["no_redis_p99_ms"]
    print(f'| outage, breaker open: p99 with Redis refusing / not answering vs no Redis | {outage["refusing_p99_ms"]:.1f} / {outage["not_answering_p99_ms"]:.1f} ms vs {base:.1f} ms = {outage["refusing_p99_ms"] / base:.2f}× / {outage["not_answering_p99_ms"] / base:.2f}× | ≤ 1.2× |')
    print()

print("## Over HTTP (issue 4)")
print()
print("VignetteBench http: a server on 127.0.0.1 in the same process (swift-nio), the same URLs fetched")
print("by `curl` (one process, one kept-alive connection) in the same run; means of 10 runs.")
print()
http_rows = lines("http.jsonl")
pj = next(h for h in http_rows if h["case"].startswith("progressive"))
sm = next(h for h in http_rows if h["case"].startswith("100"))
print("| case | Vignette | curl |")
print("|---|---|---|")
print(f'| {os.path.basename(source)} as a {pj["bytes"]:,}-byte progressive JPEG dribbled at 6.5 MB/s, 256-px thumbnail | first preview {pj["first_preview_ms"]:.0f} ms ({pj["previews_per_load"]:.1f} previews), final {pj["final_with_previews_ms"]:.0f} ms; previews off: final {pj["final_without_previews_ms"]:.0f} ms | last byte {pj["curl_last_byte_ms"]:.0f} ms |')
print(f'| 100 different {sm["bytes_each"]:,}-byte JPEGs, all at once through `data(for:)` | {sm["pipeline_no_rate_limit_ms"]:.1f} ms without a rate limit; {sm["pipeline_default_rate_limit_ms"]:.0f} ms with the default (80/s after a burst of 25) | {sm["curl_ms"]:.1f} ms (process included) |')
print()

batch = {r["command"]: r for r in json.load(open(os.path.join(out, "batch.json")))["results"]}
n_files = len([l for l in open(os.path.join(out, "batch-files.txt")) if l.strip()])
outputs = {r["command"]: r["outputs"] for r in lines("batch-outputs.jsonl")}
print(f"## Batch: the {n_files} loadable corpus images to 256-px thumbnails, whole process")
print()
print(f"hyperfine, bash, 1 warm-up run, {batch_runs} runs each, the output folder emptied before each run;")
print("every tool gets the same explicit file list (`batch-files.txt`). \"Outputs\" counts the files one")
print("more run of each wrote (vipsthumbnail's `%s.jpg` merges same-named GIF/WebP pairs; ImageMagick's")
print("resource policy refuses the 280-MP JPEG).")
print()
print("| command | mean | σ | images/s | vs `--jobs 1` | outputs |")
print("|---|---:|---:|---:|---:|---:|")
j1 = batch["vignette --jobs 1"]["mean"]
for name, shown, counted in (
        ("vignette --jobs 1", "`vignette thumbnail FILES --size 256 --out DIR --jobs 1`", "vignette"),
        ("vignette --jobs 2", "`vignette thumbnail FILES --size 256 --out DIR --jobs 2`", "vignette"),
        ("vipsthumbnail loop", "`for f in FILES; do vipsthumbnail $f -s 256 -o DIR/%s.jpg; done`", "vipsthumbnail loop"),
        ("mogrify -thumbnail", "`mogrify -path DIR -thumbnail 256x256 FILES` (ImageMagick 6)", "mogrify -thumbnail")):
    r = batch[name]
    print(f'| {shown} | {r["mean"]:.3f} s | {r["stddev"]:.3f} s | {n_files / r["mean"]:.1f} | '
          f'{j1 / r["mean"]:.2f}× | {outputs.get(counted, "?")} |')
print()
jobs_ratio = j1 / batch["vignette --jobs 2"]["mean"]
print(f"`--jobs 2` / `--jobs 1` throughput: **{jobs_ratio:.2f}×** (target ≥ 1.7× on {machine['nproc']} cores).")
print()

encode = {e["format"]: e for e in lines("encode.jsonl")}
cli = {r["command"]: r for r in json.load(open(os.path.join(out, "encode-cli.json")))["results"]}
cli_bytes = {r["file"]: r["bytes"] for r in lines("encode-cli-bytes.jsonl")}
any_e = next(iter(encode.values()))
mp = any_e["width"] * any_e["height"] / 1e6
print(f"## Encoding a {mp:.1f}-MP image ({any_e['width']}×{any_e['height']}, the photo scaled by √2), quality {any_e['quality']}")
print()
print(f"Vignette: `VignetteBench encode` decodes the PNG once, then times the encode alone, median of {encode_runs}")
print("(default options: `HEIFOptions.speed` 9, i.e. x265 `ultrafast` and aom speed 9). The CLI tools: hyperfine,")
print(f"{encode_runs} runs, whole process, which includes reading the 19 MB PNG "
      f"(Vignette's decode of it: {any_e['decode_seconds']:.2f} s). **heif-enc runs at its own defaults**,")
print("x265 preset `slow` and aom's default speed: slower presets than Vignette's, so its times are not")
print("the same work; compare sizes with that in mind.")
print()
print("| format | Vignette | bytes | CLI tool | CLI time | bytes | time ratio | size ratio |")
print("|---|---:|---:|---|---:|---:|---:|---:|")
for fmt, tool, shown, file in (("heic", "heif-enc", f"`heif-enc -q {any_e['quality']}` (x265 slow)", "heif-enc.heic"),
                                ("avif", "heif-enc -A", f"`heif-enc -A -q {any_e['quality']}` (aom default speed)", "heif-enc.avif"),
                                ("webp", "cwebp", f"`cwebp -q {any_e['quality']}`", "cwebp.webp")):
    e, c = encode[fmt], cli[tool]
    print(f'| {fmt.upper() if fmt != "webp" else "WebP"} | {e["seconds"]:.2f} s | {e["bytes"]:,} | {shown} | '
          f'{c["mean"]:.2f} s | {cli_bytes[file]:,} | {e["seconds"] / c["mean"]:.2f}× | {e["bytes"] / cli_bytes[file]:.2f}× |')
print()

memory = {}
for m in lines("memory.jsonl"):
    memory.setdefault(m["tool"], []).append(m)
print("## Peak memory: one 256-px thumbnail of giant-image.jpg (20000×14000, 280 MP)")
print()
print("Peak resident set (`ru_maxrss` of the child process), 3 runs each, the largest shown.")
print()
print("| command | peak RSS | wall time | exit status |")
print("|---|---:|---:|---:|")
for tool, shown in (("vignette", "`vignette thumbnail giant-image.jpg --size 256 --out DIR`"),
                    ("vipsthumbnail", "`vipsthumbnail giant-image.jpg -s 256 -o DIR/%s.jpg`")):
    ms = memory[tool]
    print(f'| {shown} | {max(m["max_rss_kb"] for m in ms) / 1024:.1f} MB | '
          f'{statistics.median(m["seconds"] for m in ms):.2f} s | {max(m["status"] for m in ms)} |')
print()

throughput_rows = lines("throughput.jsonl")
tp = {}
for t in throughput_rows:
    tp.setdefault((t["tool"], t["workers"]), []).append(t)
tp_images = throughput_rows[0]["images"]
print(f"## Files → files throughput: {tp_images} photos (sharp's JPEG task), 1 and 2 workers (issue 14)")
print()
print("Whole processes: `vignette thumbnail FILES --size 720x588 --quality 80 --out DIR --jobs N` and, for")
print("the Python peers, `peers/throughput.py` (a `multiprocessing.Pool` of N workers, one file per task;")
print("Pillow: draft + thumbnail LANCZOS; pyvips: `thumbnail`, cache off). Each command ran once untimed")
print("just before its timed run (the page cache then holds its binaries); medians over the rounds; CPU")
print("is user + system time of the process and its children (`peers/timed.py`).")
print()
print("| tool | workers | images/s | CPU ms per image | vs Pillow-SIMD (images/s) | 2 workers / 1 |")
print("|---|---:|---:|---:|---:|---:|")
def tp_median(tool, workers, key):
    return statistics.median(t[key] for t in tp[(tool, workers)])
tp_tools = []
for t in throughput_rows:
    if t["tool"] not in tp_tools:
        tp_tools.append(t["tool"])
for tool in tp_tools:
    for workers in (1, 2):
        rate = tp_median(tool, workers, "images_per_sec")
        cpu = tp_median(tool, workers, "cpu_ms_per_image")
        simd_rate = tp_median("Pillow-SIMD", workers, "images_per_sec")
        scaling = f'{tp_median(tool, 2, "images_per_sec") / tp_median(tool, 1, "images_per_sec"):.2f}×' if workers == 2 else ""
        print(f'| {tool} | {workers} | {rate:.1f} | {cpu:.1f} | {rate / simd_rate:.2f}× | {scaling} |')
print()

simd_task = next(r for r in rows if r["tool"] == "Pillow-SIMD")["rate"]
v2, s2 = tp_median("vignette", 2, "images_per_sec"), tp_median("Pillow-SIMD", 2, "images_per_sec")
v_scaling = v2 / tp_median("vignette", 1, "images_per_sec")
v_cpu, s_cpu = tp_median("vignette", 2, "cpu_ms_per_image"), tp_median("Pillow-SIMD", 2, "cpu_ms_per_image")
print("## Targets (issue 14)")
print()
print(f'- in-process sharp task ≥ 1.3× Pillow-SIMD\'s ops/s: {best["rate"] / simd_task:.2f}× ({best["label"]}) — '
      f'{verdict(best["rate"] >= 1.3 * simd_task)}')
print(f'- files → files at 2 workers ≥ 1.3× Pillow-SIMD\'s images/s: {v2 / s2:.2f}× — {verdict(v2 >= 1.3 * s2)}')
print(f'- `--jobs 2` ≥ 1.8× `--jobs 1`: {v_scaling:.2f}× — {verdict(v_scaling >= 1.8)}')
print(f'- CPU ms per image at full load (2 workers) ≤ 0.75× Pillow-SIMD\'s: {v_cpu:.1f} vs {s_cpu:.1f} ms = '
      f'{v_cpu / s_cpu:.2f}× — {verdict(v_cpu <= 0.75 * s_cpu)}')
print()

print("## Targets (issue 5)")
print()
print(f'- batch, `--jobs 2` ≥ 1.7× the throughput of `--jobs 1`: {jobs_ratio:.2f}× — {verdict(jobs_ratio >= 1.7)}')
print()

print("![In-process ops/s per tool](throughput.png)")
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
simd_versions = lines("python-simd-versions.json")[0]
vips818_versions = lines("python-vips818-versions.json")[0]
print(f'- Pillow-SIMD {simd_versions["Pillow-SIMD"]} (built from source against the system libjpeg-turbo '
      f'{simd_versions["libjpeg_turbo"]}); pyvips {vips818_versions["pyvips"]} on pyvips-binary\'s libvips {vips818_versions["libvips"]}')
print(f'- {machine["hyperfine"]}; {machine["imagemagick"]}; heif-enc (libheif-examples) {machine["heif_enc"]}; {machine["cwebp"] and "cwebp " + machine["cwebp"]}')
PY

log "the JPEG DC paths on and off (Benchmarks/jpeg-dc.sh)"
SKIP_BUILD=1 CORPUS="$(dirname "$input")" BENCH_SECONDS="$seconds" BENCH_ROUNDS="$rounds" "$bench_dir/jpeg-dc.sh" >> "$out/report.md"

cat "$out/report.md"
log "raw results in ${out#"$repo"/}"
