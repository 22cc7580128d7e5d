#!/usr/bin/env bash
# `make check-arm64`: Vignette's own C checked on arm64 under qemu-user, and the same checks on
# this machine (x86-64: the AVX2 paths against their scalar twins too). Swift itself is not built
# here, for either CPU.
#
# An arm64 root filesystem (Debian bookworm, taken from this machine's own apt sources, so that no
# mirror is named here) is made with `mmdebstrap --variant=extract --architectures=arm64`: the
# packages are unpacked, nothing is run in it, so no binfmt handler is needed. It holds libc, GCC's
# runtime, libjpeg-turbo, littleCMS, libheif and FFmpeg with their -dev packages, and is kept in
# .build-arm64/sysroot (git-ignored) for the next run. The C of CSystemShims/CVignetteJPEGDC,
# CVignetteResize and CVignetteLibraryLoader (with VGN_VIDEO) and the check programs of
# Tests/CChecks are compiled by the Swift toolchain's clang (--target=aarch64-linux-gnu
# --sysroot=..., ld.lld) and run with `qemu-aarch64 -L` that root filesystem; then compiled for
# this machine against its own -dev packages and run here.
#
# The checks (each prints what it compared and its counts; Tests/CChecks says what they hold):
#   jpeg_decoders   the own JPEG decoders against libjpeg-turbo at 1/8, 1/4 and 1/2 on every JPEG
#                   of Fixtures/ and, when it is there, ../shared/corpus, on damaged copies of
#                   them and on generated files with extreme coefficients and quantisers;
#   resize_kernels  the Lanczos-3 reducer's chosen path against its scalar twin;
#   colour_tables   the matrix-shaper and CMYK tables against littleCMS' 8-bit transforms;
#   trampolines     libheif and FFmpeg opened lazily and called through the stubs: a HEIF
#                   fixture's sizes and decode, a clip made here with ffmpeg opened and decoded.
#
# Exits 0 when every check passed on both CPUs, 1 on any difference or failure, 77 with
# "SKIPPED: why" when it cannot run here, or not in full: no qemu-user, mmdebstrap or clang, no
# root (or sudo) to make the root filesystem, no network to the package registry for it, no
# ffmpeg to make the clip. ARM64_ONLY=1 skips the
# native run; CORPUS=DIR names another corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
start=$(date +%s)

suite=bookworm
cache=$repo/.build-arm64
sysroot=$cache/sysroot
clang=${CLANG:-/opt/swift/usr/bin/clang}
corpus=${CORPUS:-$(dirname "$repo")/shared/corpus}
target_packages="libc6-dev libgcc-12-dev libstdc++-12-dev libturbojpeg0-dev libjpeg62-turbo-dev liblcms2-dev libheif-dev libavformat-dev libavcodec-dev libavutil-dev libswscale-dev"
host_packages="libturbojpeg0-dev libjpeg62-turbo-dev liblcms2-dev libheif-dev libavformat-dev libavcodec-dev libavutil-dev libswscale-dev"

skip() {
  echo "check-arm64: SKIPPED: $*"
  exit 77
}
fail() {
  echo "check-arm64: FAIL: $*" >&2
  exit 1
}

[ -x "$clang" ] || skip "no clang at $clang (the Swift toolchain's; CLANG= names another)"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if sudo -n true 2>/dev/null; then sudo="sudo -n"; else sudo=none; fi
fi
# What is missing of this machine's tools and -dev packages, installed when root (or sudo) can.
missing=()
for package in qemu-user mmdebstrap ffmpeg $host_packages; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  [ "$sudo" != none ] || skip "needs ${missing[*]}, and installing them needs root or sudo"
  Scripts/install-packages.sh "${missing[@]}" || skip "could not install ${missing[*]} (no network to the package registry?)"
fi
command -v qemu-aarch64 >/dev/null || skip "qemu-aarch64 is not installed (Debian's qemu-user)"

# The root filesystem, remade when the package list changes.
stamp="$suite arm64 $target_packages"
if [ ! -f "$sysroot/.vignette-packages" ] || [ "$(cat "$sysroot/.vignette-packages")" != "$stamp" ]; then
  [ "$sudo" != none ] || skip "making the arm64 root filesystem needs root or sudo (mmdebstrap's root mode)"
  # shellcheck source=Scripts/debian-root.sh
  source Scripts/debian-root.sh
  mapfile -t sources < <(debian_sources "$suite" 2>/dev/null)
  [ ${#sources[@]} -gt 0 ] || skip "this machine's apt sources have no Debian $suite repository"
  echo "== arm64 root filesystem: Debian $suite, $(wc -w <<<"$target_packages") packages and their dependencies, unpacked into ${sysroot#"$repo"/}"
  printf '   %s\n' "${sources[@]}"
  $sudo rm -rf "$sysroot"
  mkdir -p "$cache"
  log=$cache/mmdebstrap.log
  # shellcheck disable=SC2086 # $sudo is empty or one word and an option
  if ! $sudo mmdebstrap --mode=root --variant=extract --architectures=arm64 --format=directory \
      --aptopt='APT::Install-Recommends "false"' --include="${target_packages// /,}" \
      "$suite" "$sysroot" "${sources[@]}" >"$log" 2>&1; then
    tail -n 20 "$log" >&2
    $sudo rm -rf "$sysroot"
    if grep -qE "Temporary failure resolving|Could not connect|Failed to fetch|Network is unreachable|Could not resolve" "$log"; then
      skip "mmdebstrap could not reach the package registry (see $log)"
    fi
    fail "mmdebstrap could not make the arm64 root filesystem (see $log)"
  fi
  echo "$stamp" | $sudo tee "$sysroot/.vignette-packages" >/dev/null
  echo "   $(du -sh "$sysroot" | cut -f1) in $(( $(date +%s) - start )) s"
else
  echo "== arm64 root filesystem: ${sysroot#"$repo"/} (kept from an earlier run)"
fi

# A small H.264 clip for the FFmpeg trampolines.
work=$(mktemp -d /tmp/vignette-check-arm64.XXXXXX)
trap 'rm -rf "$work"' EXIT
clip=()
if ffmpeg -loglevel error -f lavfi -i testsrc=size=96x64:rate=10:duration=1 -c:v libx264 -pix_fmt yuv420p "$work/clip.mp4" 2>"$work/ffmpeg.log"; then
  clip=("$work/clip.mp4" 96 64)
else
  echo "   (the host's ffmpeg could not make a clip: the FFmpeg part is skipped: $(head -n 1 "$work/ffmpeg.log"))"
fi
folders=(Fixtures)
if [ -d "$corpus" ]; then folders+=("$corpus"); else echo "   no corpus at $corpus: Fixtures/ only"; fi

shims=CSystemShims
common=(-std=c11 -O2 -g0 -Wall -Wextra -D_DEFAULT_SOURCE)
jpeg_sources=("$shims"/CVignetteJPEGDC/*.c)
resize_sources=("$shims"/CVignetteResize/*.c)
loader_sources=("$shims"/CVignetteLibraryLoader/*.c)
jpeg_flags=(-I"$shims/CVignetteJPEGDC/include" -I"$shims/CVignetteJPEGDC")
resize_flags=(-I"$shims/CVignetteResize/include" -I"$shims/CVignetteResize")
loader_flags=(-DVGN_VIDEO -I"$shims/CVignetteLibraryLoader/include" -I"$shims/CVignetteLibraryLoader")

# Compiles the four programs into $1 with the compiler flags $2... (one clang at a time).
build() {
  local out=$1
  shift
  mkdir -p "$out"
  "$clang" "$@" "${common[@]}" "${jpeg_flags[@]}" "${jpeg_sources[@]}" Tests/CChecks/jpeg_decoders.c -o "$out/jpeg_decoders" -lturbojpeg -ljpeg &&
  "$clang" "$@" "${common[@]}" "${resize_flags[@]}" "${resize_sources[@]}" Tests/CChecks/resize_kernels.c -o "$out/resize_kernels" -lm -lpthread &&
  "$clang" "$@" "${common[@]}" "${resize_flags[@]}" "${resize_sources[@]}" Tests/CChecks/colour_tables.c -o "$out/colour_tables" \
    -llcms2 -ljpeg -lm -lpthread &&
  "$clang" "$@" "${common[@]}" "${loader_flags[@]}" "${loader_sources[@]}" Tests/CChecks/trampolines.c -o "$out/trampolines" -ldl -lpthread
}

failed=()
skipped=()
# Runs the four programs of $2 on CPU $1, through the runner $3... (none: natively).
run_checks() {
  local cpu=$1 bin=$2
  shift 2
  local name status
  for name in jpeg_decoders resize_kernels colour_tables trampolines; do
    local arguments=()
    case $name in
      jpeg_decoders | colour_tables) arguments=("${folders[@]}") ;;
      trampolines) arguments=(Fixtures/thumbnail.heic 1280 960 320 240 "${clip[@]}") ;;
    esac
    local t0
    t0=$(date +%s)
    status=0
    "$@" "$bin/$name" "${arguments[@]}" >"$work/output" 2>&1 || status=$?
    sed 's/^/   /' "$work/output"
    echo "   ($cpu $name: exit $status, $(( $(date +%s) - t0 )) s)"
    if [ "$status" -eq 77 ]; then skipped+=("$cpu $name"); elif [ "$status" -ne 0 ]; then failed+=("$cpu $name"); fi
  done
}

echo "== arm64: compiling (clang --target=aarch64-linux-gnu --sysroot=${sysroot#"$repo"/} -fuse-ld=lld)"
t0=$(date +%s)
build "$cache/bin" --target=aarch64-linux-gnu --sysroot="$sysroot" -fuse-ld=lld || fail "the arm64 build failed"
echo "   $(( $(date +%s) - t0 )) s"
echo "== arm64: running under qemu-aarch64 -L ${sysroot#"$repo"/}"
run_checks arm64 "$cache/bin" qemu-aarch64 -L "$sysroot"

if [ "${ARM64_ONLY:-0}" != 1 ]; then
  native=$(uname -m)
  echo "== $native: compiling and running natively"
  t0=$(date +%s)
  build "$cache/bin-native" -fuse-ld=lld || fail "the native build failed"
  echo "   $(( $(date +%s) - t0 )) s"
  run_checks "$native" "$cache/bin-native"
  # The scalar reducer's weights come from each CPU's libm: say whether both gave the same bytes.
  a=$(qemu-aarch64 -L "$sysroot" "$cache/bin/resize_kernels" | sed -n 's/.*digest of the scalar outputs: //p')
  b=$("$cache/bin-native/resize_kernels" | sed -n 's/.*digest of the scalar outputs: //p')
  if [ "$a" = "$b" ]; then echo "   the scalar reducer gave the same bytes on arm64 and $native ($a)"
  else echo "   the scalar reducer's bytes differ between arm64 ($a) and $native ($b): each CPU is checked against itself"; fi
fi

elapsed=$(( $(date +%s) - start ))
[ ${#failed[@]} -eq 0 ] || fail "${failed[*]} (after $elapsed s)"
[ ${#skipped[@]} -eq 0 ] || skip "${skipped[*]} could not run in full (the rest passed, in $elapsed s)"
echo "== check-arm64 passed in $elapsed s"
