"""The benchmark report (Markdown) from the JSON lines run.sh left in OUT.
Usage: report.py OUT SECONDS ROUNDS RUNS SOURCE PNG_SECONDS PNG_ROUNDS BATCH_RUNS ENCODE_RUNS"""
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
