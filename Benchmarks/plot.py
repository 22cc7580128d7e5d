"""The plot of Benchmarks/run.sh: in-process ops/s per tool for sharp's JPEG and PNG tasks, grouped
bars, the median over the rounds of one run.

    plot.py RESULTS_DIR OUT.png
"""
import json
import os
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def medians(path):
    """{tool label: median ops/s} in the order the cases ran."""
    rates = {}
    if not os.path.exists(path):
        return rates
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            row = json.loads(line)
            tool = row["tool"]
            if tool.startswith("vignette"):
                if "vips_thumbnail" in tool:
                    name = "Vignette\nvips_thumbnail\nroute"
                else:
                    name = f'Vignette\n{row["threads"]} thread{"s" if row["threads"] != 1 else ""}'
            elif tool == "pyvips":
                name = f'pyvips\n{row.get("threads", "?")} threads'
            elif tool == "pyvips 8.18":
                name = f'pyvips 8.18\n{row.get("threads", "?")} threads'
            elif tool == "Pillow-SIMD":
                name = "Pillow-SIMD\n1 thread"
            else:
                name = "Pillow\n1 thread"
            rates.setdefault(name, []).append(row["ops_per_sec"])
    return {name: statistics.median(values) for name, values in rates.items()}


def main():
    results, target = sys.argv[1], sys.argv[2]
    tasks = [("JPEG task: 2725×2225 JPEG → 720×588, Q80", medians(os.path.join(results, "jpeg-task.jsonl"))),
             ("PNG task: 2048×1536 RGBA PNG → 720×540, zlib 6", medians(os.path.join(results, "png-task.jsonl")))]
    tools = []
    for _, rates in tasks:
        tools += [t for t in rates if t not in tools]
    colours = {"Vignette": "#2b6cb0", "pyvips": "#dd8452", "pyvips 8.18": "#c44e52", "Pillow": "#55a868",
               "Pillow-SIMD": "#8172b2"}

    fig, axes = plt.subplots(1, len(tasks), figsize=(12, 3.8), dpi=90)
    for ax, (title, rates) in zip(axes, tasks):
        names = [t for t in tools if t in rates]
        values = [rates[t] for t in names]
        colour = [colours[t.split("\n")[0]] for t in names]
        alpha = [0.55 if "route" in t else 1.0 for t in names]
        bars = ax.bar(range(len(names)), values, color=colour)
        for bar, a in zip(bars, alpha):
            bar.set_alpha(a)
        for bar, v in zip(bars, values):
            ax.text(bar.get_x() + bar.get_width() / 2, v, f"{v:.1f}", ha="center", va="bottom", fontsize=8)
        ax.set_xticks(range(len(names)), names, fontsize=7)
        ax.set_title(title, fontsize=9)
        ax.set_ylabel("operations per second (higher is better)", fontsize=8)
        ax.set_ylim(0, max(values) * 1.15 if values else 1)
        ax.tick_params(axis="y", labelsize=8)
        ax.spines[["top", "right"]].set_visible(False)
    fig.suptitle("Vignette vs pyvips and Pillow (with Pillow-SIMD and libvips 8.18), in-process, one operation at a time (2 cores)", fontsize=10)
    fig.tight_layout()
    fig.savefig(target, format="png", metadata={"Software": None})


if __name__ == "__main__":
    main()
