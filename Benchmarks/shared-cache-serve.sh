#!/usr/bin/env bash
# Two `vignette serve` instances on one redis-server (127.0.0.1): the second instance serving
# results the first made (Redis hits) against a third instance without Redis making them.
#
#   Benchmarks/shared-cache-serve.sh [BINARY]        (default .build/release/vignette)
#
# N distinct thumbnails (sizes 100…, fit, JPEG q80) of the 6-MP corpus photo; each fetched once,
# 8 kept-alive connections (Benchmarks/peers/fetch_all.py). DISTINCT sets N (default 400).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
binary="${1:-$here/../.build/release/vignette}"
corpus="${CORPUS:-$here/../../shared/corpus}"
photo="$corpus/2569067123_aca715a2ee_o.jpg"
distinct="${DISTINCT:-400}"
[[ -f "$photo" ]] || { echo "shared-cache-serve.sh: no corpus photo at $photo (set CORPUS)" >&2; exit 0; }
command -v redis-server > /dev/null || { echo "shared-cache-serve.sh: redis-server is not installed" >&2; exit 0; }
work="$(mktemp -d)"
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2> /dev/null || true; done; wait 2> /dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

mkdir -p "$work/root"
cp "$photo" "$work/root/photo.jpg"   # a copy: a link out of --root is refused
redis_port="$(free_port)"
redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no --dir "$work" > /dev/null &
pids+=($!)
for _ in $(seq 100); do redis-cli -p "$redis_port" ping > /dev/null 2>&1 && break; sleep 0.05; done

# serve NAME [FLAGS...]: starts an instance, sets PORT_<NAME>.
serve() {
    local name="$1"; shift
    "$binary" serve --bind 127.0.0.1:0 --root "$work/root" "$@" 2> "$work/$name.log" &
    pids+=($!)
    local port=""
    for _ in $(seq 600); do
        port="$(sed -n 's/.*listening on http:\/\/127.0.0.1:\([0-9]*\).*/\1/p' "$work/$name.log" | head -1)"
        [[ -n "$port" ]] && break
        sleep 0.05
    done
    [[ -n "$port" ]] || { echo "instance $name did not start" >&2; cat "$work/$name.log" >&2; exit 1; }
    printf -v "PORT_$name" '%s' "$port"
}
serve first --redis "redis://127.0.0.1:$redis_port"
serve second --redis "redis://127.0.0.1:$redis_port"
serve alone

for size in $(seq 100 $((100 + distinct - 1))); do
    echo "/insecure/rs:fit:$size:$size/q:80/plain/local:///photo.jpg@jpg"
done > "$work/paths.txt"

echo "== the first instance makes $distinct thumbnails (they go to Redis)" >&2
made="$(python3 "$here/peers/fetch_all.py" "$PORT_first" 8 "$work/paths.txt")"
for _ in $(seq 600); do [[ "$(redis-cli -p "$redis_port" dbsize)" -ge "$distinct" ]] && break; sleep 0.05; done
echo "== the second instance serves them (Redis hits); an instance without Redis makes them" >&2
hits="$(python3 "$here/peers/fetch_all.py" "$PORT_second" 8 "$work/paths.txt")"
alone="$(python3 "$here/peers/fetch_all.py" "$PORT_alone" 8 "$work/paths.txt")"
redis_hits="$(curl -s "http://127.0.0.1:$PORT_second/metrics" | sed -n 's/^vignette_cache_hits_total{layer="redis"} //p')"
python3 - "$made" "$hits" "$alone" "$redis_hits" "$distinct" <<'PY'
import json, sys
made, hits, alone = (json.loads(a) for a in sys.argv[1:4])
print(f"| instance | served/s | p50 ms | p99 ms | statuses |")
print(f"|---|---:|---:|---:|---|")
for name, row in [("first (makes, writes to Redis)", made), ("second (Redis hits)", hits), ("alone (makes, no Redis)", alone)]:
    print(f'| {name} | {row["rate"]:.0f} | {row["p50_ms"]:.2f} | {row["p99_ms"]:.2f} | {row["statuses"]} |')
print(f"\nsecond vs alone: {hits['rate'] / alone['rate']:.1f}x the rate; Redis hits counted by the second: {sys.argv[4]} of {sys.argv[5]}")
PY
