"""Reads a soak's samples.tsv and wrk.json, writes soak.png (RSS, cache bytes and request rate over
time) beside them and prints the figures and the verdict: RSS levels off at no more than the
baseline + the configured caps x 1.2.

    verdict.py RESULTS_FOLDER SETTING WARMUP_SECONDS
"""
import csv
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MB = 1 << 20


def slope_mb_per_minute(points):
    if len(points) < 2:
        return 0.0
    n = len(points)
    mean_t = sum(t for t, _ in points) / n
    mean_v = sum(v for _, v in points) / n
    var = sum((t - mean_t) ** 2 for t, _ in points)
    return 0.0 if var == 0 else sum((t - mean_t) * (v - mean_v) for t, v in points) / var * 60 / MB


def main():
    folder, setting, warmup = sys.argv[1], sys.argv[2], float(sys.argv[3])
    with open(f"{folder}/samples.tsv") as f:
        rows = [{k: float(v) for k, v in row.items()} for row in csv.DictReader(f, delimiter="\t")]
    if len(rows) < 4:
        sys.exit("too few samples")
    wrk = json.load(open(f"{folder}/wrk.json"))
    end = rows[-1]["seconds"]
    # The baseline: the most RSS − cache bytes reached during the warm-up, the working memory of the
    # images in flight once every connection is busy.
    warm = [r for r in rows if r["seconds"] <= min(warmup, end / 3)] or rows[:2]
    baseline = max(r["rss"] - r["encoded_bytes"] for r in warm)
    cap = max(r["encoded_limit"] for r in rows) + max(r["staged_bytes"] for r in rows)
    bound = baseline + cap * 1.2
    late = [r for r in rows if r["seconds"] >= end / 2]
    peak = max(r["rss"] for r in late)
    slope = slope_mb_per_minute([(r["seconds"], r["rss"]) for r in rows if r["seconds"] >= end * 2 / 3])
    gap = [r["rss"] - r["encoded_bytes"] for r in late]
    times = [r["seconds"] / 60 for r in rows]
    rates = [0.0] + [(b["requests"] - a["requests"]) / max(1e-9, b["seconds"] - a["seconds"]) for a, b in zip(rows, rows[1:])]

    fig, memory = plt.subplots(figsize=(9, 4.5))
    memory.plot(times, [r["rss"] / MB for r in rows], label="RSS", color="tab:red")
    memory.plot(times, [r["encoded_bytes"] / MB for r in rows], label="memory cache (gauge)", color="tab:blue")
    memory.plot(times, [(r["rss"] - r["encoded_bytes"]) / MB for r in rows], label="RSS − cache", color="tab:gray", linestyle=":")
    memory.plot(times, [r["vips_tracked"] / MB for r in rows], label="libvips tracked", color="tab:green", linewidth=0.8)
    memory.axhline(bound / MB, color="tab:red", linestyle="--", linewidth=0.8, label="bound: baseline + cap × 1.2")
    memory.set_xlabel("minutes")
    memory.set_ylabel("MB")
    rate_axis = memory.twinx()
    rate_axis.plot(times, rates, color="tab:orange", linewidth=0.6, alpha=0.6, label="requests/s")
    rate_axis.set_ylabel("requests/s")
    lines = memory.get_legend_handles_labels()
    more = rate_axis.get_legend_handles_labels()
    memory.legend(lines[0] + more[0], lines[1] + more[1], loc="upper left", fontsize=8)
    memory.set_title(f"vignette serve soak, memory cache {setting}" + ("" if setting == "default" else " MiB"))
    fig.tight_layout()
    fig.savefig(f"{folder}/soak.png", dpi=90)

    holds = peak <= bound
    figures = {
        "setting": setting, "minutes": round(end / 60, 1), "requests": int(wrk["requests"]), "rate": round(wrk["requests"] / wrk["seconds"], 1),
        "non2xx": wrk["non2xx"], "socket_errors": wrk["socket_errors"], "p50_ms": wrk["p50_ms"], "p99_ms": wrk["p99_ms"],
        "baseline_mb": round(baseline / MB), "cap_mb": round(cap / MB), "bound_mb": round(bound / MB),
        "rss_start_mb": round(rows[0]["rss"] / MB), "rss_peak_second_half_mb": round(peak / MB), "rss_end_mb": round(rows[-1]["rss"] / MB),
        "cache_end_mb": round(rows[-1]["encoded_bytes"] / MB, 1), "cache_entries_end": int(rows[-1]["encoded_entries"]),
        "cache_evictions": int(rows[-1]["encoded_evictions"]), "rss_minus_cache_second_half_mb": [round(min(gap) / MB), round(max(gap) / MB)],
        "rss_slope_last_third_mb_per_min": round(slope, 2), "vips_highwater_mb": round(rows[-1]["vips_highwater"] / MB),
        "threads_end": int(rows[-1]["threads"]), "fds_end": int(rows[-1]["fds"]),
    }
    print(json.dumps(figures))
    print(f"verdict: {'HOLDS' if holds else 'FAILS'}: peak RSS of the second half {peak / MB:.0f} MB "
          f"{'<=' if holds else '>'} bound {bound / MB:.0f} MB (baseline {baseline / MB:.0f} + cap {cap / MB:.0f} x 1.2); "
          f"RSS over the last third {slope:+.2f} MB/min")


main()
