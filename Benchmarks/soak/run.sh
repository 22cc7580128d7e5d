#!/usr/bin/env bash
# A memory soak of `vignette serve` (issue 37): a diverse load in which no URL repeats (JPEG, WebP,
# AVIF and PNG out; fit, fill, blur, sharpen, rotate; stills, animations, CMYK, 16-bit, alpha)
# driven by wrk on 127.0.0.1, with the server's RSS and its /metrics gauges sampled every few
# seconds into a TSV, a plot of RSS, cache bytes and request rate over time, and a verdict: RSS
# levels off at no more than the baseline + the configured caps × 1.2.
#
#   Benchmarks/soak/run.sh SETTING [SECONDS]
#     SETTING: default (the memory cache's default size), or a size in MiB for --memory-cache-size
#              (16, or 0 for no memory cache). SECONDS: how long the load runs (default 1800).
#
# Environment: VIGNETTE (the binary; default .build/release/vignette, built release with a static
# Swift runtime when missing), PORT (default: a free one), CONNECTIONS (wrk's, default 8), SAMPLE
# (seconds between samples, default 5), WARMUP (seconds of warm-up the baseline is read from, default 300, at most a third of the run),
# CORPUS (../shared/corpus: its photos, CMYK, 16-bit, alpha and animations join the fixtures when
# present), OUT (the results folder; default Benchmarks/soak/results/SETTING-DATE).
#
# Baseline: the most RSS minus what the memory cache holds (its gauge) reached during the warm-up:
# the process with its working memory for the images in flight, and no cached results. The bound is
# baseline + cap × 1.2 (cap: vignette_memory_cache_limit_bytes + the disk cache's staging, none
# here). "Levels off": the RSS's growth over the last third of the run, in MB a minute, is reported
# beside the bound; the verdict holds when the peak RSS of the second half is within the bound.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
setting="${1:?usage: run.sh default|MIB [SECONDS]}"
seconds="${2:-1800}"
binary="${VIGNETTE:-$repo/.build/release/vignette}"
corpus="${CORPUS:-$repo/../shared/corpus}"
connections="${CONNECTIONS:-8}"
sample="${SAMPLE:-5}"
warmup="${WARMUP:-300}"
out="${OUT:-$here/results/$setting-$(date +%Y%m%d-%H%M%S)}"
log() { echo "== $*" >&2; }

if [[ ! -x "$binary" ]]; then
    log "building the release vignette"
    (cd "$repo" && swift build -c release --static-swift-stdlib --traits CLI --product vignette >&2)
fi
"$repo/Scripts/install-packages.sh" wrk python3-venv
"$here/setup-venv.sh"
mkdir -p "$out"
work="$(mktemp -d)"
server_pid=""
stop() {
    [[ -n "$server_pid" ]] && kill "$server_pid" 2> /dev/null && wait "$server_pid" 2> /dev/null || true
    rm -rf "$work"
}
trap stop EXIT

# The images: the fixtures' stills and animations, and the corpus' photos, CMYK, 16-bit, alpha and
# animations when it is there. Hostile and broken files are left out (they are refused, not served).
mkdir -p "$work/images"
for name in baseline.jpg progressive.jpg cmyk.jpg adobergb.jpg orientation-6.jpg rgb16.png alpha.png grey-alpha.png \
    p3-alpha.png prophoto16.png palette.png alpha.webp lossy.webp lossless.webp avif.avif animated.gif animated.webp \
    animated-loop3.gif animated-loop3.webp; do
    [[ -f "$repo/Fixtures/$name" ]] && cp "$repo/Fixtures/$name" "$work/images/"
done
if [[ -d "$corpus" ]]; then
    for name in 2569067123_aca715a2ee_o.jpg Landscape_1.jpg Landscape_6.jpg Channel_digital_image_CMYK_color.jpg \
        Flag_of_the_Netherlands-16bit.png Flag_of_the_Netherlands-alpha.png bggn4a16.png 5_webp_a.webp \
        animated-loop-3.gif rotating-squares.webp p3.png; do
        [[ -f "$corpus/$name" ]] && cp "$corpus/$name" "$work/images/"
    done
fi
ls "$work/images" > "$out/images.txt"
log "$(wc -l < "$out/images.txt") images"

flags=()
[[ "$setting" != default ]] && flags=(--memory-cache-size "$setting")
port="${PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
"$binary" serve --bind "127.0.0.1:$port" --root "$work/images" --queue 100000 "${flags[@]}" 2> "$out/server.log" &
server_pid=$!
for _ in $(seq 300); do curl -sf -o /dev/null "http://127.0.0.1:$port/health" && break; sleep 0.1; done

# Every request distinct: a counter per wrk thread (each from its own base) picks the image, the
# operation, the format and the box, and is the cache buster.
cat > "$work/soak.lua" <<LUA
local images = {}
for name in string.gmatch("$(paste -sd, "$out/images.txt")", "[^,]+") do images[#images + 1] = name end
local operations = { "rs:fit:%d:%d", "rs:fill:%d:%d", "rs:fit:%d:%d/bl:2", "rs:fit:%d:%d/sh:1.5", "rs:fit:%d:%d/rot:90" }
local formats = { "jpg", "webp", "avif", "png" }
local counter, base, threads = 0, 0, 0
setup = function(thread) thread:set("base", threads * 100000000); threads = threads + 1 end
init = function() base = tonumber(wrk.thread:get("base")) or 0 end
request = function()
  counter = counter + 1
  local n = base + counter
  local image = images[n % #images + 1]
  local operation = operations[math.floor(n / 7) % #operations + 1]
  local format = formats[math.floor(n / 3) % #formats + 1]
  local size = 64 + (math.floor(n / 11) % 640)
  local path = "/insecure/" .. string.format(operation, size, size) .. "/cb:" .. n .. "/plain/local:///" .. image .. "@" .. format
  return wrk.format("GET", path)
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"seconds":%.1f,"p50_ms":%.1f,"p99_ms":%.1f,"non2xx":%d,"socket_errors":%d}\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1e3, latency:percentile(99) / 1e3,
    e.status, e.connect + e.read + e.write + e.timeout))
end
LUA

"$here/.venv/bin/python" "$here/sample.py" "$server_pid" "$port" "$sample" "$seconds" > "$out/samples.tsv" &
sampler=$!
log "setting $setting: ${seconds}s of load at $connections connections on 127.0.0.1:$port, results in $out"
wrk -t 2 -c "$connections" -d "${seconds}s" --timeout 60s -s "$work/soak.lua" "http://127.0.0.1:$port" > "$out/wrk.txt"
wait "$sampler" || true
tail -1 "$out/wrk.txt" > "$out/wrk.json"
"$here/.venv/bin/python" "$here/verdict.py" "$out" "$setting" "$warmup" | tee "$out/verdict.txt"
