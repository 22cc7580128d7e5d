#!/usr/bin/env bash
# Builds the libFuzzer targets (Fuzz/Sources, targets of the main package, with
# -sanitize=fuzzer,address into .build-fuzz) and runs each one.
#
#   Scripts/fuzz.sh                 each target for FUZZ_SECONDS (default 300), FUZZ_JOBS at a time
#   Scripts/fuzz.sh --replay        each target over its seeds and Fuzz/regressions once (a smoke)
#   Scripts/fuzz.sh --replay-plain  the same through the plain build's targets (.build/debug, which
#                                   `make test` has built): no instrumented build, no AddressSanitizer
#
# FUZZ_TARGETS="FuzzProbe …" picks targets; FUZZ_SKIP_BUILD=1 uses the binaries already built;
# FUZZ_TIMEOUT (default 10) is the seconds one input may take before it is a finding: raise it when
# the machine is busy with other work, where an input that takes 1 s alone can pass 10.
#
# Seeds: Fixtures/ (made by Fixtures/make-fixtures.sh), ../shared/corpus when it is there, and
# Fuzz/regressions/<target>/ (inputs of past findings, kept); FuzzJPEGDC also gets small JPEGs of
# every kind its paths take, made by cjpeg when libjpeg-turbo-progs is installed. What the fuzzer adds to the corpus,
# and every crash, timeout or out-of-memory input, goes to .fuzz/ (git-ignored). Limits: 2 GB of
# RSS (libFuzzer's count includes AddressSanitizer's shadow memory and quarantine), 1 GB for one
# allocation, 10 s for one input (FUZZ_TIMEOUT). Exits 1 when any target found something, with the inputs named.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
SECONDS_EACH=${FUZZ_SECONDS:-300}
JOBS=${FUZZ_JOBS:-2}
read -r -a TARGETS <<< "${FUZZ_TARGETS:-FuzzProbe FuzzThumbnail FuzzProgressive FuzzJPEGDC FuzzHTTPHeaders FuzzImgproxyOptions FuzzMetadata FuzzSVG FuzzPDF FuzzGainMap FuzzVideo FuzzBMP FuzzICO}"
mode=${1:-run}
scratch=.build-fuzz
work=.fuzz
mkdir -p "$work"

if [ "$mode" = --replay-plain ]; then
  bin=.build/debug
else
  echo "== building the fuzz targets (-sanitize=fuzzer,address) into $scratch" >&2
  for target in "${TARGETS[@]}"; do
    [ "${FUZZ_SKIP_BUILD:-0}" = 1 ] && break
    # The C targets too (-Xcc): coverage for the fuzzer in Vignette's own C (CVignetteJPEGDC,
    # CVignetteResize, CVignetteImageShims), and AddressSanitizer around it. The HTTP trait for
    # FuzzHTTPHeaders and Video for FuzzVideo, the same for every target so that they share one build.
    "$SWIFT" build -c debug --scratch-path "$scratch" --traits HTTP,Video -Xswiftc -DFUZZING -Xswiftc -sanitize=fuzzer,address \
      -Xcc -fsanitize=fuzzer-no-link,address \
      --product "$target" >&2
  done
  bin="$scratch/debug"
fi

seeds() { # target -> folder of seeds
  local target=$1 folder="$work/seeds/$1"
  rm -rf "$folder"; mkdir -p "$folder"
  if [ "$target" = FuzzHTTPHeaders ]; then
    printf 'ETag: "abc"\nLast-Modified: Sun, 06 Nov 1994 08:49:37 GMT\nCache-Control: max-age=60\nContent-Length: 42\nAccept-Ranges: bytes\n' > "$folder/typical"
    printf 'Expires: Sun, 06 Nov 1994 08:49:37 GMT\nCache-Control: no-store\n' > "$folder/expires"
  elif [ "$target" = FuzzSVG ] || [ "$target" = FuzzPDF ]; then
    # SVG documents and PDFs of their own, hostile ones among them (cairo through rsvg-convert).
    Fuzz/make-vector-seeds.sh "$( [ "$target" = FuzzSVG ] && echo svg || echo pdf)" "$folder"
    if [ "$target" = FuzzSVG ]; then
      # Gzip-compressed copies (.svgz) of a few documents.
      for f in $(ls "$folder" | head -8); do gzip -9 -c "$folder/$f" > "$folder/$f.svgz"; done
    fi
  elif [ "$target" = FuzzBMP ] || [ "$target" = FuzzICO ]; then
    # The BMP suite (Fixtures/bmpsuite: good, questionable and bad files) or the icons
    # (Fixtures/icons), each behind the selector byte: 0 (fail on errors) and 1 (fail on nothing).
    if [ "$target" = FuzzBMP ]; then files=(Fixtures/bmpsuite/*/*.bmp); else files=(Fixtures/icons/*); fi
    for f in "${files[@]}"; do
      name=$(basename "$(dirname "$f")")-$(basename "$f")
      { printf '\x00'; cat "$f"; } > "$folder/$name"
      { printf '\x03'; cat "$f"; } > "$folder/lenient-$name"
    done
  elif [ "$target" = FuzzVideo ]; then
    # Small clips of every container and codec the poster path reads, made by ffmpeg.
    Fuzz/make-video-seeds.sh "$folder"
  elif [ "$target" = FuzzImgproxyOptions ]; then
    printf 'rs:fill-down:300:200:1:1/g:nowe:10:0.5/pd:1:2:3/mw:5/z:0.5:2/exar:1:so/fl:1:0' > "$folder/geometry"
    printf 'c:0.5:100:fp:0.2:0.8/t:10:ffffff:1:1/wm:0.5:re:3:4:0.2/pix:4/bg:10:20:30/dpr:3/rot:270' > "$folder/operations"
    printf 'f:avif/q:30/fq:jpg:40:webp:50/mb:2000/exp:1700000000/fn:bmFtZQ:1/att:1/raw:0/skp:jpg:png/pr:a' > "$folder/delivery"
    printf 'msr:0.5/msfs:1000/maf:3/mafr:0.1/mrd:64/kcr:1/ph:t/eth:false/ar:0/sm:0/scp:0/cb:x/el:1/ex:1:ce' > "$folder/limits"
  else
    for f in Fixtures/*; do
      case $f in *.sh|*.md|*.tsv) continue ;; esac
      [ -f "$f" ] || continue   # folders of their own (Fixtures/ssimulacra2)
      if [ "$target" = FuzzThumbnail ]; then { printf '\x00'; cat "$f"; } > "$folder/$(basename "$f")";
      elif [ "$target" = FuzzMetadata ]; then { printf '\x03'; cat "$f"; } > "$folder/$(basename "$f")"; else cp "$f" "$folder/"; fi
    done
    if [ -d ../shared/corpus ]; then
      for f in ../shared/corpus/*; do
        [ "$(stat -c %s "$f")" -le 2000000 ] || continue   # small files only: the fuzzer mutates them
        case $f in *.tsv) continue ;; esac
        if [ "$target" = FuzzThumbnail ]; then { printf '\x00'; cat "$f"; } > "$folder/corpus-$(basename "$f")";
        elif [ "$target" = FuzzMetadata ]; then { printf '\x03'; cat "$f"; } > "$folder/corpus-$(basename "$f")"; else cp "$f" "$folder/corpus-$(basename "$f")"; fi
      done
    fi
  fi
  if [ "$target" = FuzzJPEGDC ] && command -v cjpeg >/dev/null && command -v djpeg >/dev/null; then
    # Small JPEGs of every kind the DC paths take (libjpeg-turbo-progs): subsamplings, greyscale,
    # restart intervals, optimised tables, progressive scripts with successive approximation.
    djpeg -scale 1/4 -outfile "$folder/source.ppm" Fixtures/baseline.jpg
    djpeg -scale 1/4 -grayscale -outfile "$folder/source.pgm" Fixtures/baseline.jpg
    printf '0,1,2: 0 0 0 1;\n0: 1 8 0 2;\n1: 1 63 0 0;\n2: 1 63 0 0;\n0: 9 63 0 2;\n0,1,2: 0 0 1 0;\n0: 1 63 2 1;\n0: 1 63 1 0;\n' > "$folder/scans.txt"
    for sample in 1x1 2x1 2x2 1x2 4x1; do
      cjpeg -sample "$sample" -outfile "$folder/gen-$sample.jpg" "$folder/source.ppm"
      cjpeg -sample "$sample" -optimize -restart 3B -outfile "$folder/gen-$sample-r3.jpg" "$folder/source.ppm"
      cjpeg -sample "$sample" -progressive -outfile "$folder/gen-$sample-p.jpg" "$folder/source.ppm"
      cjpeg -sample "$sample" -scans "$folder/scans.txt" -restart 1B -outfile "$folder/gen-$sample-s.jpg" "$folder/source.ppm"
    done
    cjpeg -grayscale -restart 2B -outfile "$folder/gen-grey.jpg" "$folder/source.pgm"
    cjpeg -grayscale -progressive -outfile "$folder/gen-grey-p.jpg" "$folder/source.pgm"
    rm -f "$folder/source.ppm" "$folder/source.pgm" "$folder/scans.txt"
  fi
  if [ "$target" = FuzzGainMap ] && [ -x .venv-test/bin/python ]; then
    # Ultra HDR JPEGs (every orientation, gain maps at 1/2 and 1/4) made by the tests' reference
    # script (.venv-test: NumPy, Pillow), each behind the selector byte of the whole path (3).
    made=$(mktemp -d)
    .venv-test/bin/python Tests/VignetteTests/GainMap/ultrahdr_reference.py make "$made" > /dev/null
    for f in "$made"/*.jpg; do { printf '\x03'; cat "$f"; } > "$folder/$(basename "$f")"; done
    rm -rf "$made"
  fi
  if [ -d "Fuzz/regressions/$target" ]; then cp Fuzz/regressions/"$target"/* "$folder/" 2>/dev/null || true; fi
  echo "$folder"
}

dict() {
  case $1 in
    FuzzHTTPHeaders) echo Fuzz/http.dict ;;
    FuzzImgproxyOptions) echo Fuzz/options.dict ;;
    FuzzSVG) echo Fuzz/svg.dict ;;
    *) echo Fuzz/image.dict ;;
  esac
}

common=(-rss_limit_mb=2048 -malloc_limit_mb=1024 -timeout="${FUZZ_TIMEOUT:-10}" -print_final_stats=1)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1}

if [ "$mode" = --replay ] || [ "$mode" = --replay-plain ]; then
  status=0
  for target in "${TARGETS[@]}"; do
    folder=$(seeds "$target")
    echo "== $target: replaying $(ls "$folder" | wc -l) seeds" >&2
    # libFuzzer's driver takes the folder; the plain build's replay takes the files.
    if [ "$mode" = --replay ]; then replay=("$bin/$target" "${common[@]}" -runs=0 "$folder"); else replay=("$bin/$target" "$folder"/*); fi
    if ! "${replay[@]}" > "$work/$target.replay.log" 2>&1; then
      echo "$target: FAILED on a seed, see $work/$target.replay.log" >&2
      tail -30 "$work/$target.replay.log" >&2
      status=1
    else
      grep -E "^#[0-9]+.*DONE|Done [0-9]+ runs|^replayed [0-9]+" "$work/$target.replay.log" | tail -1 >&2 || true
    fi
  done
  [ $status = 0 ] && echo "fuzz replay: every seed of ${#TARGETS[@]} targets ran clean"
  exit $status
fi

run_target() {
  local target=$1 folder corpus findings
  folder=$(seeds "$target")
  corpus="$work/corpus/$target"; findings="$work/findings/$target"
  # Findings of earlier runs move aside, so that the count below is this run's.
  if [ -d "$findings" ] && [ -n "$(ls -A "$findings")" ]; then
    mkdir -p "$work/findings-earlier/$target"; mv "$findings"/* "$work/findings-earlier/$target/"
  fi
  mkdir -p "$corpus" "$findings"
  "$bin/$target" "${common[@]}" -max_total_time="$SECONDS_EACH" -dict="$(dict "$target")" \
    -artifact_prefix="$findings/" "$corpus" "$folder" > "$work/$target.log" 2>&1 || true
}
echo "== fuzzing ${TARGETS[*]} for $SECONDS_EACH s each, $JOBS at a time" >&2
running=0
for target in "${TARGETS[@]}"; do
  run_target "$target" &
  running=$((running + 1))
  if [ "$running" -ge "$JOBS" ]; then wait -n; running=$((running - 1)); fi
done
wait

status=0
echo "| target | seconds | executions | exec/s | corpus | findings |"
echo "|---|---|---|---|---|---|"
for target in "${TARGETS[@]}"; do
  log="$work/$target.log"
  runs=$(grep -oE "stat::number_of_executed_units: *[0-9]+" "$log" | grep -oE "[0-9]+$" | tail -1)
  speed=$(grep -oE "stat::average_exec_per_sec: *[0-9]+" "$log" | grep -oE "[0-9]+$" | tail -1)
  units=$(ls "$work/corpus/$target" | wc -l)
  found=$(ls "$work/findings/$target" | wc -l)
  echo "| $target | $SECONDS_EACH | ${runs:-?} | ${speed:-?} | $units | $found |"
  if [ "$found" -gt 0 ]; then
    status=1
    for f in "$work/findings/$target"/*; do echo "finding: $f" >&2; done
    grep -E "ERROR: |SUMMARY|==[0-9]+==" "$log" | head -5 >&2 || true
  fi
done
exit $status
