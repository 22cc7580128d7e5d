#!/usr/bin/env bash
# Vignette's SSIMULACRA 2.1 (CSystemShims/CVignetteMetrics) against libjxl's `ssimulacra2` tool
# (Scripts/ssimulacra2-reference.sh) on pairs made here: photos of ../shared/corpus and Fixtures/,
# downscaled, each against JPEG at qualities 20-95, WebP, a PNG palette, a blur and a half-size
# round trip; RGBA and grey-with-alpha sources against lossy WebP with lossy alpha, a palette PNG,
# and an opaque JPEG of the flattened image. Both metrics read the same decoded pixels: libvips
# decodes every file once to an 8-bit PAM (Scripts/ssimulacra2-pam.sh), which libjxl's tool reads
# too, so the comparison is of the metrics, not of two JPEG decoders.
#
#   Scripts/check-ssimulacra2.sh              the table, the largest difference; exit 1 if any is
#                                             over TOLERANCE (0.5)
#   Scripts/check-ssimulacra2.sh --fixtures   also remakes Fixtures/ssimulacra2/ (small pairs of
#                                             Fixtures' own images) and its scores.tsv, which
#                                             Tests/VignetteCodecsTests/SSIMULACRA2Tests.swift reads
#
# The C driver (Tests/CChecks/ssimulacra2_check.c) is built here with cc -O2; both code paths
# (AVX2 and scalar) are scored, and must agree to 1e-6. KEEP=DIR keeps the pairs in DIR. Needs
# libvips-tools; the corpus is optional (its pairs are skipped when it is absent).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
tolerance="${TOLERANCE:-0.5}"
corpus="${CORPUS:-$repo/../shared/corpus}"
fixtures_mode=0
[[ "${1:-}" == --fixtures ]] && fixtures_mode=1
command -v vips >/dev/null || { echo "check-ssimulacra2: vips is missing (apt-get install libvips-tools)" >&2; exit 1; }

reference="$(Scripts/ssimulacra2-reference.sh --path)" || { echo "check-ssimulacra2: SKIPPED: no reference tool" >&2; exit 77; }

if [[ -n "${KEEP:-}" ]]; then
    work="$(mkdir -p "$KEEP" && cd "$KEEP" && pwd)"
else
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' EXIT
fi
metrics=CSystemShims/CVignetteMetrics
cc -O2 -std=c11 -I "$metrics/include" "$metrics"/*.c Tests/CChecks/ssimulacra2_check.c -lm -lpthread \
    -o "$work/ssimulacra2_check"

to_pam() { Scripts/ssimulacra2-pam.sh "$1" "$2"; }

pairs=() # "NAME REFERENCE DISTORTED" (files in $work)

# NAME SOURCE WIDTH: the reference NAME.png, and its distortions.
opaque_source() {
    local name="$1" source="$2" width="$3" ref="$work/$1.png"
    vips thumbnail "$source" "$ref" "$width" --export-profile srgb
    for q in 20 35 50 65 80 95; do
        vips copy "$ref" "$work/$name-q$q.jpg[Q=$q,strip]"
        pairs+=("$name-jpeg-q$q $name.png $name-q$q.jpg")
    done
    vips copy "$ref" "$work/$name-q50.webp[Q=50,strip]"
    pairs+=("$name-webp-q50 $name.png $name-q50.webp")
    vips copy "$ref" "$work/$name-palette.png[palette,Q=60]"
    pairs+=("$name-png-palette $name.png $name-palette.png")
    vips gaussblur "$ref" "$work/$name-blur.png" 1.2
    pairs+=("$name-blur $name.png $name-blur.png")
    vips resize "$ref" "$work/half.v" 0.5
    vips thumbnail "$work/half.v" "$work/$name-halved.png" "$(vipsheader -f width "$ref")" \
        --height "$(vipsheader -f height "$ref")" --size force
    pairs+=("$name-halved $name.png $name-halved.png")
}

# NAME SOURCE WIDTH: a source with alpha, and its distortions (alpha kept, alpha lost).
alpha_source() {
    local name="$1" source="$2" width="$3" ref="$work/$1.png"
    vips thumbnail "$source" "$ref" "$width"
    for q in 30 60 90; do
        vips copy "$ref" "$work/$name-q$q.webp[Q=$q,alpha_q=50,strip]"
        pairs+=("$name-webp-q$q $name.png $name-q$q.webp")
    done
    vips copy "$ref" "$work/$name-palette.png[palette,Q=60]"
    pairs+=("$name-png-palette $name.png $name-palette.png")
    vips flatten "$ref" "$work/flat.v" --background 128
    vips copy "$work/flat.v" "$work/$name-flat-q70.jpg[Q=70,strip]"
    pairs+=("$name-flat-jpeg-q70 $name.png $name-flat-q70.jpg")
}

echo "== making the pairs in $work" >&2
if [[ -f "$corpus/MANIFEST.tsv" ]]; then
    opaque_source photo "$corpus/2569067123_aca715a2ee_o.jpg" 720
    opaque_source landscape "$corpus/Landscape_1.jpg" 480
    opaque_source portrait "$corpus/Landscape_9.jpg" 360
    opaque_source gallery "$corpus/4.webp" 512
    opaque_source cmyk "$corpus/Channel_digital_image_CMYK_color.jpg" 400
    alpha_source paper "$corpus/alpha-premultiply-2048x1536-paper.png" 512
    alpha_source webp-alpha "$corpus/5_webp_a.webp" 300
else
    echo "check-ssimulacra2: no corpus at $corpus: its pairs are skipped" >&2
fi
opaque_source fixture "Fixtures/baseline.jpg" 480
alpha_source fixture-alpha "Fixtures/alpha.png" 320
alpha_source fixture-grey-alpha "Fixtures/grey-alpha.png" 320

# NAME REFERENCE DISTORTED → "NAME REFERENCE-SCORE AVX2 SCALAR".
score_pair() {
    local name="$1" ref="$work/$2" dist="$work/$3" expected ours scalar
    [[ -f "${ref%.*}.pam" ]] || to_pam "$ref" "${ref%.*}.pam"
    to_pam "$dist" "$dist.pam"
    # shellcheck disable=SC2086 # the reference command is words by design
    expected="$($reference "${ref%.*}.pam" "$dist.pam" | tail -n 1)"
    ours="$("$work/ssimulacra2_check" "${ref%.*}.pam" "$dist.pam")"
    scalar="$("$work/ssimulacra2_check" --scalar "${ref%.*}.pam" "$dist.pam")"
    echo "$name $expected $ours $scalar"
}

echo "== scoring ${#pairs[@]} pairs: libjxl's ssimulacra2 and Vignette's (AVX2 and scalar)" >&2
printf '%-32s %12s %12s %9s\n' pair libjxl vignette difference
worst=0 failed=0 count=0
for pair in "${pairs[@]}"; do
    # shellcheck disable=SC2086
    read -r name expected ours scalar < <(score_pair $pair)
    read -r difference too_far paths_differ < <(python3 -c "
d = $ours - $expected
print(f'{d:+.4f}', int(abs(d) > $tolerance), int(abs($ours - $scalar) > 1e-6))")
    printf '%-32s %12.6f %12.6f %9s\n' "$name" "$expected" "$ours" "$difference"
    worst="$(python3 -c "print(max($worst, abs($difference)))")"
    count=$((count + 1))
    [[ "$too_far" == 0 ]] || failed=1
    [[ "$paths_differ" == 0 ]] || { echo "  AVX2 $ours and scalar $scalar differ" >&2; failed=1; }
done
echo "largest difference over $count pairs: $worst (tolerance $tolerance)"

if [[ "$fixtures_mode" == 1 ]]; then
    out=Fixtures/ssimulacra2
    version="libjxl-devtools $(dpkg-query --admindir="$repo/.ref-trixie/rootfs/var/lib/dpkg" -W -f '${Version}' libjxl-devtools 2>/dev/null ||
        dpkg-query -W -f '${Version}' libjxl-devtools)"
    mkdir -p "$out"
    rm -f "$out"/*
    {
        echo "# Scores of libjxl's ssimulacra2 ($version) for the pairs in this folder, made by"
        echo "# Scripts/check-ssimulacra2.sh --fixtures: each distorted file made from the Fixtures/ image named"
        echo "# first with libvips $(vips --version | cut -d' ' -f1 | cut -d- -f2), both decoded by libvips to 8-bit PAM, which the tool scored."
        echo "# Read by Tests/VignetteCodecsTests/SSIMULACRA2Tests.swift."
        printf 'reference\tdistorted\tlibjxl\n'
    } > "$out/scores.tsv"
    fixture_pair() { # REFERENCE (in Fixtures/) DISTORTED-NAME VIPS-ARGUMENTS...
        local reference_file="$1" distorted="$2"
        shift 2
        "$@" "$out/$distorted"
        to_pam "Fixtures/$reference_file" "$work/fixture-ref.pam"
        to_pam "$out/$distorted" "$work/fixture-dist.pam"
        # shellcheck disable=SC2086
        printf '%s\t%s\t%s\n' "$reference_file" "$distorted" \
            "$($reference "$work/fixture-ref.pam" "$work/fixture-dist.pam" | tail -n 1)" >> "$out/scores.tsv"
    }
    for q in 20 50 90; do
        fixture_pair rgb8.png "rgb8-q$q.jpg" sh -c "vips copy Fixtures/rgb8.png \"\$0[Q=$q,strip]\""
    done
    fixture_pair rgb8.png rgb8-q60.webp sh -c 'vips copy Fixtures/rgb8.png "$0[Q=60,strip]"'
    fixture_pair rgb8.png rgb8-blur-q95.jpg sh -c 'vips gaussblur Fixtures/rgb8.png "$0[Q=95,strip]" 1.0'
    fixture_pair alpha.png alpha-q40.webp sh -c 'vips copy Fixtures/alpha.png "$0[Q=40,alpha_q=50,strip]"'
    fixture_pair alpha.png alpha-palette.png sh -c 'vips copy Fixtures/alpha.png "$0[palette,Q=40]"'
    fixture_pair alpha.png alpha-flat-q70.jpg sh -c 'vips flatten Fixtures/alpha.png "$0[Q=70,strip]" --background 128'
    fixture_pair grey-alpha.png grey-alpha-q50.webp sh -c 'vips copy Fixtures/grey-alpha.png "$0[Q=50,alpha_q=60,strip]"'
    fixture_pair baseline.jpg baseline-q30.jpg sh -c 'vips copy Fixtures/baseline.jpg "$0[Q=30,strip]"'
    echo "== remade $out: $(grep -vc '^#' "$out/scores.tsv") lines (a header and the pairs)" >&2
fi
exit "$failed"
