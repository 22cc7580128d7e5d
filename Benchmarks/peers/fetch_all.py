#!/usr/bin/env python3
"""GETs every path of a file (one per line) from http://127.0.0.1:PORT with CONNECTIONS kept-alive
connections (threads) and prints one JSON line: requests, seconds, rate, status counts, p50/p99 ms."""
import http.client, json, sys, threading, time

port, connections, listing = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
with open(listing) as f:
    paths = [line.strip() for line in f if line.strip()]
lock = threading.Lock()
statuses, latencies, cursor = {}, [], [0]

def worker():
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    while True:
        with lock:
            if cursor[0] >= len(paths):
                break
            path = paths[cursor[0]]
            cursor[0] += 1
        started = time.perf_counter()
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        elapsed = time.perf_counter() - started
        with lock:
            statuses[response.status] = statuses.get(response.status, 0) + 1
            latencies.append(elapsed)
    connection.close()

start = time.perf_counter()
threads = [threading.Thread(target=worker) for _ in range(connections)]
for t in threads: t.start()
for t in threads: t.join()
seconds = time.perf_counter() - start
latencies.sort()
pick = lambda q: latencies[min(len(latencies) - 1, int(len(latencies) * q))] * 1000
print(json.dumps({"requests": len(paths), "seconds": round(seconds, 3), "rate": round(len(paths) / seconds, 1),
                  "statuses": {str(k): v for k, v in statuses.items()}, "p50_ms": round(pick(0.5), 2), "p99_ms": round(pick(0.99), 2)}))
