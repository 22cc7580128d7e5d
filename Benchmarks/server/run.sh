#!/usr/bin/env bash
# `vignette serve` beside thumbor 7 (PyPI), one at a time, driven by wrk on 127.0.0.1 (issue 11):
#   (a) one URL repeated, (b) a diverse load where every request must process (distinct sizes and
#   images), each at 8 and 64 connections: req/s, p50/p99, errors, CPU ms per request (the server's
#   /proc, children included), peak RSS; (c) a soak of the diverse load with a tenth of the clients
#   disconnecting early: RSS after warm-up vs at the end, errors; (d) imgproxy's published task (a
#   2000x1333 JPEG fitted into 500x500, JPEG q80): CPU ms per request.
#
#   Benchmarks/server/run.sh [VIGNETTE_BINARY]     (make bench-server; default .build/release/vignette)
#
# thumbor keeps no results, so it processes the one repeated URL every time; Vignette serves it from
# its memory cache of encoded results, as it would in service.
#
# Environment: DURATION (s per wrk case, default 15), SOAK_SECONDS (default 60, after a warm-up of
# SOAK_WARMUP, default 30, under the same load), THUMBOR_PROCESSES
# (default: the cores; thumbor's --processes), CORPUS. Both servers read the same folder, fit inside
# the same boxes and write JPEG q80; neither keeps results (thumbor: no storage, no result storage;
# Vignette: no disk cache, and a cachebuster or a new size on every diverse request).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
binary="${1:-$repo/.build/release/vignette}"
corpus="${CORPUS:-$repo/../shared/corpus}"
duration="${DURATION:-15}"
soak="${SOAK_SECONDS:-60}"
soak_warmup="${SOAK_WARMUP:-30}"
cores="$(nproc)"
thumbor_processes="${THUMBOR_PROCESSES:-$cores}"
venv="$repo/.bench-venv-thumbor"
log() { echo "== $*" >&2; }

[[ -x "$binary" ]] || { echo "no vignette binary at $binary (make release)" >&2; exit 1; }
[[ -f "$corpus/MANIFEST.tsv" ]] || { echo "no corpus at $corpus (set CORPUS)" >&2; exit 1; }
"$repo/Scripts/install-packages.sh" wrk libvips-tools python3-venv
if [[ ! -x "$venv/bin/thumbor" ]]; then
    log "installing thumbor 7 into $venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q 'thumbor>=7,<8'
fi

work="$(mktemp -d)"
server_pid=""
VIGNETTE_FLAGS="${VIGNETTE_FLAGS:-}"
# thumbor --processes forks: its children go with it.
stop_server() {
    [[ -n "$server_pid" ]] || return 0
    local children; children="$(pgrep -P "$server_pid" | tr "\n" " " || true)"
    kill "$server_pid" $children 2> /dev/null || true
    wait "$server_pid" 2> /dev/null || true
    server_pid=""
}
trap 'stop_server; rm -rf "$work"' EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# The images: the corpus's photos (the 6-MP sharp photo, the 8-MP gain-map JPEG, three 600x450
# camera JPEGs, one of them EXIF-rotated) and imgproxy's 2000x1333 task image. Not its broken or
# hostile files: those are refused by Vignette's budget and made (slowly) by thumbor.
mkdir -p "$work/images"
n=0
for name in 2569067123_aca715a2ee_o.jpg gain-map.jpg Landscape_1.jpg Landscape_6.jpg Landscape_9.jpg; do
    [[ -f "$corpus/$name" ]] || continue
    cp "$corpus/$name" "$work/images/p$n.jpg"; n=$((n + 1))
done
vips thumbnail "$corpus/2569067123_aca715a2ee_o.jpg" "$work/images/task.jpg[Q=90]" 2000 --height 1333 --size force
# 2000 names for it (hard links): thumbor keeps no results, and Vignette keys a result by its source's path and
# the cache buster the URL carries, so every request processes.
mkdir -p "$work/images/task"
for i in $(seq 0 1999); do ln "$work/images/task.jpg" "$work/images/task/$i.jpg"; done
log "$n photos, and task.jpg $(vipsheader "$work/images/task.jpg" | cut -d: -f2)"

cat > "$work/thumbor.conf" <<CONF
LOADER = 'thumbor.loaders.file_loader'
FILE_LOADER_ROOT_PATH = '$work/images'
STORAGE = 'thumbor.storages.no_storage'
RESULT_STORAGE = None
ALLOW_UNSAFE_URL = True
QUALITY = 80
AUTO_WEBP = False
RESPECT_ORIENTATION = True
CONF

# URL builders for the wrk scripts: KIND is vignette or thumbor.
cat > "$work/one.lua" <<'LUA'
local kind = os.getenv("KIND")
request = function()
  if kind == "vignette" then return wrk.format("GET", "/insecure/rs:fit:256:256/q:80/plain/local:///p0.jpg@jpg") end
  return wrk.format("GET", "/unsafe/fit-in/256x256/filters:quality(80)/p0.jpg")
end
LUA
cat > "$work/diverse.lua" <<'LUA'
-- Every request distinct: the images in turn, each at a size from 100 to 899, and a cache buster
-- from a counter per thread with the thread's own offset, so no result repeats within a run (the
-- cache buster is part of Vignette's keys: without it the two threads' sizes and images meet); OFFSET
-- (one per case) keeps a later case of the same server from asking for results an earlier one
-- made, which Vignette would answer from its memory cache.
local kind, images = os.getenv("KIND"), tonumber(os.getenv("IMAGES"))
local offset = tonumber(os.getenv("OFFSET") or "0")
local counter, base = 0, 0
local threads = 0
setup = function(thread) thread:set("base", offset + threads * 1000003); threads = threads + 1 end
init = function() base = tonumber(wrk.thread:get("base")) or 0 end
request = function()
  counter = counter + 1
  local n = base + counter
  local size = 100 + (math.floor(n / images) % 800)
  local image = "p" .. (n % images) .. ".jpg"
  if kind == "vignette" then
    return wrk.format("GET", "/insecure/rs:fit:" .. size .. ":" .. size .. "/q:80/cb:" .. n .. "/plain/local:///" .. image .. "@jpg")
  end
  return wrk.format("GET", "/unsafe/fit-in/" .. size .. "x" .. size .. "/filters:quality(80)/" .. image)
end
LUA
cat > "$work/task.lua" <<'LUA'
local kind, counter, base, threads = os.getenv("KIND"), 0, 0, 0
setup = function(thread) thread:set("base", threads * 1000); threads = threads + 1 end
init = function() base = tonumber(wrk.thread:get("base")) or 0 end
request = function()
  counter = counter + 1
  local name = "task/" .. ((base + counter) % 2000) .. ".jpg"
  -- The cache buster: the thread's base and its own count, distinct however far the names wrap.
  if kind == "vignette" then return wrk.format("GET", "/insecure/rs:fit:500:500/q:80/cb:" .. base .. "-" .. counter .. "/plain/local:///" .. name .. "@jpg") end
  return wrk.format("GET", "/unsafe/fit-in/500x500/filters:quality(80)/" .. name)
end
LUA
cat > "$work/report.lua" <<'LUA'
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"seconds":%.3f,"p50_ms":%.2f,"p99_ms":%.2f,"non2xx":%d,"socket_errors":%d}\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1e3, latency:percentile(99) / 1e3,
    e.status, e.connect + e.read + e.write + e.timeout))
end
LUA
for script in one diverse task; do cat "$work/report.lua" >> "$work/$script.lua"; done

# The server's process tree: CPU ticks (utime + stime, children's too) and RSS.
tree() { echo "$server_pid $(pgrep -P "$server_pid" | tr '\n' ' ')"; }
ticks() { local t=0; for p in $(tree); do [[ -r /proc/$p/stat ]] && t=$((t + $(awk '{ print $14 + $15 }' /proc/$p/stat))); done; echo $t; }
rss_kb() { local k=0; for p in $(tree); do [[ -r /proc/$p/status ]] && k=$((k + $(awk '/^VmRSS/ { print $2 }' /proc/$p/status))); done; echo $k; }
hwm_kb() { local k=0; for p in $(tree); do [[ -r /proc/$p/status ]] && k=$((k + $(awk '/^VmHWM/ { print $2 }' /proc/$p/status))); done; echo $k; }
hz="$(getconf CLK_TCK)"

start_server() {
    local kind="$1"
    port="$(free_port)"
    if [[ "$kind" == vignette ]]; then
        "$binary" serve --bind "127.0.0.1:$port" --root "$work/images" --queue 100000 $VIGNETTE_FLAGS 2> "$work/vignette.log" &
    else
        "$venv/bin/thumbor" -p "$port" -i 127.0.0.1 -c "$work/thumbor.conf" --processes "$thumbor_processes" -l error 2> "$work/thumbor.log" &
    fi
    server_pid=$!
    for _ in $(seq 300); do curl -sf -o /dev/null "http://127.0.0.1:$port/healthcheck" && break; curl -sf -o /dev/null "http://127.0.0.1:$port/health" && break; sleep 0.1; done
    sleep 1
}

# measure KIND CASE SCRIPT CONNECTIONS SECONDS: one JSON line with the server's CPU and memory.
measure() {
    local kind="$1" case="$2" script="$3" connections="$4" seconds="$5" t0 t1 line
    t0="$(ticks)"
    line="$(KIND="$kind" IMAGES="$n" wrk -t 2 -c "$connections" -d "${seconds}s" --timeout 30s -s "$work/$script.lua" "http://127.0.0.1:$port" | tail -1)"
    t1="$(ticks)"
    python3 - "$line" "$kind" "$case" "$connections" "$((t1 - t0))" "$hz" "$(hwm_kb)" <<'PY'
import json, sys
row = json.loads(sys.argv[1]); ticks, hz = int(sys.argv[5]), int(sys.argv[6])
row.update(server=sys.argv[2], case=sys.argv[3], connections=int(sys.argv[4]), peak_rss_mb=round(int(sys.argv[7]) / 1024, 1),
           rate=round(row["requests"] / row["seconds"], 1), cpu_ms_per_request=round(ticks / hz * 1000 / max(1, row["requests"]), 2))
print(json.dumps(row))
PY
}

# soak KIND: the diverse load for SOAK_WARMUP + SOAK_SECONDS with 90 % of 20 clients well-behaved
# (wrk) and 10 % disconnecting 20 ms into each request; RSS every 5 s, "after warm-up" at
# SOAK_WARMUP, and at the end. (Both servers' RSS still rises for 20-40 s under this load as their
# allocators' arenas and caches fill; a leak is growth after that.)
soak_run() {
    local kind="$1" warm end line quitters total=$((soak_warmup + soak))
    local url
    if [[ "$kind" == vignette ]]; then url="/insecure/rs:fit:333:333/q:80/cb:RANDOM/plain/local:///p1.jpg@jpg"; else url="/unsafe/fit-in/333x333/filters:quality(80)/p1.jpg"; fi
    python3 - "$port" "$url" "$total" > "$work/quitters.json" <<'PY' &
import json, random, socket, sys, time
port, url, seconds = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
end, count = time.time() + seconds, 0
while time.time() < end:
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(f"GET {url.replace('RANDOM', str(random.randrange(1 << 30)))} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    time.sleep(0.02)
    s.close()
    count += 1
print(json.dumps({"abandoned": count}))
PY
    local quitter_pid=$!
    : > "$work/rss-series"
    ( for _ in $(seq 1 $((total / 5))); do sleep 5; echo "$(rss_kb)" >> "$work/rss-series"; done ) &
    local sampler_pid=$!
    line="$(KIND="$kind" IMAGES="$n" wrk -t 2 -c 18 -d "${total}s" --timeout 30s -s "$work/diverse.lua" "http://127.0.0.1:$port" | tail -1)"
    end="$(rss_kb)"
    wait "$quitter_pid"
    kill "$sampler_pid" 2> /dev/null || true
    warm="$(sed -n "$((soak_warmup / 5))p" "$work/rss-series")"
    python3 - "$line" "$kind" "$warm" "$end" "$(cat "$work/quitters.json")" "$(tr '\n' ' ' < "$work/rss-series")" <<'PY'
import json, sys
row = json.loads(sys.argv[1]); row.update(json.loads(sys.argv[5]))
row.update(server=sys.argv[2], case="soak", rss_warm_mb=round(int(sys.argv[3]) / 1024, 1), rss_end_mb=round(int(sys.argv[4]) / 1024, 1),
           rss_every_5s_mb=[round(int(k) / 1024) for k in sys.argv[6].split()])
print(json.dumps(row))
PY
}

results="$work/results.jsonl"
for kind in vignette thumbor; do
    log "$kind: starting"
    start_server "$kind"
    for connections in 8 64; do
        log "$kind: one URL, $connections connections, ${duration}s"
        measure "$kind" one one "$connections" "$duration" >> "$results"
        log "$kind: diverse, $connections connections, ${duration}s"
        OFFSET=$((connections * 100000000)) measure "$kind" diverse diverse "$connections" "$duration" >> "$results"
    done
    log "$kind: imgproxy's task, 8 connections, ${duration}s"
    measure "$kind" task task 8 "$duration" >> "$results"
    stop_server
    # The soak's results never repeat, so Vignette's memory cache of results fills up to its bound
    # (up to 256 MiB): bounded at 16 MiB here, RSS shows whether anything else grows.
    VIGNETTE_FLAGS="--memory-cache-size 16" start_server "$kind"
    log "$kind: soak, ${soak_warmup}s of warm-up and ${soak}s"
    soak_run "$kind" >> "$results"
    stop_server
done

mkdir -p "$here/results"
cp "$results" "$here/results/latest.jsonl"
python3 - "$results" "$n" "$thumbor_processes" <<'PY' | tee "$here/results/latest.md"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
get = lambda server, case, c=None: next(r for r in rows if r["server"] == server and r["case"] == case and (c is None or r.get("connections") == c))
print(f"vignette serve vs thumbor 7 (--processes {sys.argv[3]}), wrk on 127.0.0.1, {sys.argv[2]} corpus photos; fit inside, JPEG q80.\n")
print("| case | conns | server | req/s | p50 ms | p99 ms | errors | CPU ms/req | peak RSS MB |")
print("|---|---:|---|---:|---:|---:|---:|---:|---:|")
for case in ["one", "diverse"]:
    for c in [8, 64]:
        for server in ["vignette", "thumbor"]:
            r = get(server, case, c)
            print(f'| {case} | {c} | {server} | {r["rate"]:.1f} | {r["p50_ms"]:.1f} | {r["p99_ms"]:.1f} | {r["non2xx"] + r["socket_errors"]} | {r["cpu_ms_per_request"]:.1f} | {r["peak_rss_mb"]:.0f} |')
print()
print("| ratio (vignette / thumbor) | req/s | p99 | CPU ms/req |")
print("|---|---:|---:|---:|")
for case in ["one", "diverse"]:
    for c in [8, 64]:
        v, t = get("vignette", case, c), get("thumbor", case, c)
        print(f'| {case}, {c} connections | {v["rate"] / t["rate"]:.2f}x | {v["p99_ms"] / t["p99_ms"]:.2f}x | {v["cpu_ms_per_request"] / t["cpu_ms_per_request"]:.2f}x |')
v, t = get("vignette", "task"), get("thumbor", "task")
print(f'\nimgproxy\'s task (2000x1333 JPEG into 500x500, q80): Vignette {v["cpu_ms_per_request"]:.1f} CPU ms/request ({v["rate"]:.1f} req/s), thumbor {t["cpu_ms_per_request"]:.1f} ({t["rate"]:.1f} req/s): {v["cpu_ms_per_request"] / t["cpu_ms_per_request"]:.2f}x.\n')
print("| soak | req/s | p99 ms | errors | abandoned | RSS after warm-up MB | RSS at the end MB | end / warm |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for server in ["vignette", "thumbor"]:
    r = get(server, "soak")
    print(f'| {server} | {r["requests"] / r["seconds"]:.1f} | {r["p99_ms"]:.1f} | {r["non2xx"] + r["socket_errors"]} | {r["abandoned"]} | {r["rss_warm_mb"]:.0f} | {r["rss_end_mb"]:.0f} | {r["rss_end_mb"] / r["rss_warm_mb"]:.2f} |')
print()
for server in ["vignette", "thumbor"]:
    print(f'{server}\'s RSS every 5 s of the soak (MB): {", ".join(str(m) for m in get(server, "soak").get("rss_every_5s_mb", []))}')
PY
