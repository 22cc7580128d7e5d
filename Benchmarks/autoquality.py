"""Autoquality and best format against fixed JPEG qualities, on a folder of photos.

    Benchmarks/autoquality.sh PHOTOS_DIR [OUT_DIR]

For every photo (written at its own size, upright, sRGB), through `vignette thumbnail --json
--jobs 1` (one image at a time, so the milliseconds are per image) and scored by `vignette
compare --json` (SSIMULACRA 2.1) against the same image written as PNG:

  fixed JPEG      q60, q65, ..., q95
  aq:ssimulacra2  targets 70, 80 and 85, qualities 30-95, allowed error 1, JPEG
  f:best          JPEG, WebP and AVIF accepted, each at aq:ssimulacra2:80:30:95:1

Prints a Markdown table (total bytes, mean and lowest score, encodes and milliseconds per image)
and the issue's check: the lowest fixed quality at which every photo scores at least 79, and the
bytes of aq:ssimulacra2:80 and of f:best as a share of it. Writes results.json to OUT_DIR and,
when matplotlib imports, OUT_DIR/autoquality.png (total bytes against mean score).
"""
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile

VIGNETTE = os.environ.get("VIGNETTE", "vignette")


def thumbnails(photos, out, *flags):
    """{input path: (output path, bytes, ms, encoding or None)} of one run over the folder."""
    os.makedirs(out, exist_ok=True)
    command = [VIGNETTE, "thumbnail", photos, "--out", out, "--size", "8192", "--json", "--jobs", "1", *flags]
    result = subprocess.run(command, capture_output=True, text=True, check=True)
    report = json.loads(result.stdout)
    made = {}
    for entry in report["results"]:
        if entry.get("error"):
            raise SystemExit(f"{entry['input']}: {entry['error']}")
        made[entry["input"]] = (entry["output"], entry["bytes"], entry["ms"], entry.get("encoding"))
    return made


def score(reference, distorted):
    result = subprocess.run([VIGNETTE, "compare", "--json", reference, distorted], capture_output=True, text=True, check=True)
    return json.loads(result.stdout)["ssimulacra2"]


def case(name, photos, work, references, *flags):
    made = thumbnails(photos, os.path.join(work, name), *flags)
    items = sorted(made.items())
    # The scores, several `vignette compare` processes at once (SCORERS, default 3).
    with concurrent.futures.ThreadPoolExecutor(max_workers=int(os.environ.get("SCORERS", "3"))) as pool:
        scores = list(pool.map(lambda item: score(references[item[0]], item[1][0]), items))
    rows = []
    for (source, (output, size, ms, encoding)), measured in zip(items, scores):
        rows.append({
            "photo": os.path.basename(source), "bytes": size, "ms": ms, "score": measured,
            "encodes": (encoding or {}).get("encodes", 1), "format": (encoding or {}).get("format", "jpeg"),
            "quality": (encoding or {}).get("quality"),
        })
    print(f"  {name}: done", file=sys.stderr)
    return {"name": name, "rows": rows}


def summary(result):
    rows = result["rows"]
    n = len(rows)
    return {
        "name": result["name"], "bytes": sum(r["bytes"] for r in rows), "mean": sum(r["score"] for r in rows) / n,
        "min": min(r["score"] for r in rows), "encodes": sum(r["encodes"] for r in rows) / n, "ms": sum(r["ms"] for r in rows) / n,
    }


def main():
    photos = os.path.abspath(sys.argv[1])
    out = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else tempfile.mkdtemp(prefix="vignette-aq-")
    work = tempfile.mkdtemp(prefix="vignette-aq-work-")
    references = {k: v[0] for k, v in thumbnails(photos, os.path.join(work, "reference"), "--format", "png").items()}
    print(f"{len(references)} photos", file=sys.stderr)
    results = []
    for quality in range(60, 100, 5):
        results.append(case(f"jpeg q{quality}", photos, work, references, "--format", "jpeg", "--quality", str(quality)))
    for target in (70, 80, 85):
        results.append(case(f"aq:ssimulacra2:{target}", photos, work, references, "--format", "jpeg", "--options", f"aq:ssimulacra2:{target}:30:95:1"))
    results.append(case("f:best (jpeg, webp, avif) aq 80", photos, work, references,
                        "--format", "best", "--accept", "jpeg,webp,avif", "--options", "aq:ssimulacra2:80:30:95:1"))
    summaries = [summary(r) for r in results]

    print(f"| case ({len(references)} photos) | total bytes | mean score | lowest score | encodes / photo | ms / photo |")
    print("|---|---:|---:|---:|---:|---:|")
    for s in summaries:
        print(f"| {s['name']} | {s['bytes']:,} | {s['mean']:.2f} | {s['min']:.2f} | {s['encodes']:.2f} | {s['ms']:.0f} |")
    floor = next((s for s in summaries if s["name"].startswith("jpeg q") and s["min"] >= 79), None)
    aq80 = next(s for s in summaries if s["name"] == "aq:ssimulacra2:80")
    best = summaries[-1]
    formats = {}
    for row in results[-1]["rows"]:
        formats[row["format"]] = formats.get(row["format"], 0) + 1
    print()
    if floor:
        print(f"Lowest fixed JPEG quality with every photo at 79 or more: {floor['name']} ({floor['bytes']:,} bytes).")
        print(f"aq:ssimulacra2:80:30:95:1: {aq80['bytes'] / floor['bytes']:.3f} of its bytes, lowest score {aq80['min']:.2f}.")
        print(f"f:best (JPEG, WebP, AVIF accepted): {best['bytes'] / floor['bytes']:.3f} of its bytes, lowest score {best['min']:.2f};"
              f" formats chosen: {', '.join(f'{k} {v}' for k, v in sorted(formats.items()))}.")
    else:
        print("No fixed JPEG quality up to 95 has every photo at 79 or more.")
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump({"summaries": summaries, "results": results}, f, indent=1)
    plot(summaries, os.path.join(out, "autoquality.png"))


def plot(summaries, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is missing: no plot", file=sys.stderr)
        return
    fixed = [s for s in summaries if s["name"].startswith("jpeg q")]
    figure, axes = plt.subplots(figsize=(7, 4.5))
    axes.plot([s["bytes"] / 1e6 for s in fixed], [s["mean"] for s in fixed], "o-", color="grey", label="fixed JPEG q60–q95 (mean)")
    axes.plot([s["bytes"] / 1e6 for s in fixed], [s["min"] for s in fixed], "o--", color="lightgrey", label="fixed JPEG (lowest photo)")
    for s in fixed:
        axes.annotate(s["name"].split()[-1], (s["bytes"] / 1e6, s["mean"]), textcoords="offset points", xytext=(4, -10), fontsize=7)
    for s, colour in zip([s for s in summaries if not s["name"].startswith("jpeg q")], ["tab:blue", "tab:green", "tab:purple", "tab:red"]):
        axes.plot([s["bytes"] / 1e6], [s["mean"]], "s", color=colour, label=f"{s['name']} (mean)")
        axes.plot([s["bytes"] / 1e6], [s["min"]], "v", color=colour)
    axes.axhline(79, color="black", linewidth=0.5, linestyle=":")
    axes.set_xlabel("total bytes of the set (MB)")
    axes.set_ylabel("SSIMULACRA2 (squares: mean; triangles: lowest photo)")
    axes.legend(fontsize=7)
    axes.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    print(f"plot: {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
