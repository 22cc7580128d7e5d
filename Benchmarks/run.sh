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
    # VignetteBench is a target of the main package; the CLI trait (as `make release`) brings what it needs.
    swift build -c release --static-swift-stdlib --traits CLI --product VignetteBench >&2
    swift build -c release --static-swift-stdlib --traits CLI --product vignette >&2
fi
bench="$(swift build -c release --static-swift-stdlib --traits CLI --show-bin-path)/VignetteBench"
vignette="$(swift build -c release --static-swift-stdlib --traits CLI --show-bin-path)/vignette"

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
"$python" "$bench_dir/report/versions.py" full > "$out/python-versions.json"
"$simd_python" "$bench_dir/report/versions.py" simd > "$out/python-simd-versions.json"
"$vips818_python" "$bench_dir/report/versions.py" vips > "$out/python-vips818-versions.json"

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
"$python" "$bench_dir/report/psnr.py" "$input" "$out" > "$out/thumbnail-formats-quality.jsonl"

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
        "$python" "$bench_dir/report/peak_memory.py" "$tool" "${cmd[@]}" >> "$out/memory.jsonl"
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

"$python" "$bench_dir/report/report.py" "$out" "$seconds" "$rounds" "$runs" "$input" "$png_seconds" "$png_rounds" "$batch_runs" \
    "$encode_runs" > "$out/report.md"

log "the JPEG DC paths on and off (Benchmarks/jpeg-dc.sh)"
SKIP_BUILD=1 CORPUS="$(dirname "$input")" BENCH_SECONDS="$seconds" BENCH_ROUNDS="$rounds" "$bench_dir/jpeg-dc.sh" >> "$out/report.md"

cat "$out/report.md"
log "raw results in ${out#"$repo"/}"
