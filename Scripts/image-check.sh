#!/usr/bin/env bash
# `make image-check [RELEASE=trixie]`: the container's runtime stage checked without Docker
# (docs/deploy.md), for one Debian release: bookworm (the default) or trixie.
#
#   Scripts/image-check.sh [bookworm|trixie]
#
# mmdebstrap builds its root filesystem from that release, taken from this machine's own apt
# sources (Scripts/debian-root.sh): the minbase variant, trimmed as debian:RELEASE-slim is (no
# docs, man pages, locales), plus exactly deploy/runtime-packages-RELEASE.txt. The release binary
# (VIGNETTE_BIN; by default built with the CLI, Video and Faces traits: .build/release/vignette when
# this machine runs that release, else in a build root of the release, BUILD_ROOT, kept when given,
# as the Dockerfile's build stage would; its debug information stripped) and the health probe are
# copied in and the unprivileged user made as the Dockerfile does, and `vignette serve` runs in it under chroot as that user (in a mount namespace of its
# own, with /proc and a read-only /sys).
# From the host, curl asks for /health and for thumbnails: JPEG, WebP and AVIF of a JPEG, a JPEG
# of a HEIC, a video poster (a clip ffmpeg makes, Fixtures/ has none) and, when the YuNet model is
# beside the checkout (FACE_MODEL; by default the one of ../shared/models that the release's
# OpenCV runs: 2022mar for 4.6, 2023mar for 4.8 and later), a g:obj:face crop of
# Tests/Photos/pair.jpg whose Vignette-Crop header must say both faces; each answer's
# Content-Type is checked, its body decoded by libvips (vipsheader, vips avg) and its size checked.
# Inside the root filesystem ldd must find every library of the binary, of libvips' modules and of
# the libraries the binary opens with dlopen (libheif, OpenCV's objdetect for faces, FFmpeg's for video),
# and the image's HEALTHCHECK probe must pass; SIGTERM must stop the server with status 0. Then
# `systemd-analyze verify` checks deploy/vignette.service (a copy whose ExecStart is the binary
# checked here, since verify wants it to exist) and `systemd-analyze security` scores it.
#
# Prints the time it took, the root filesystem's size and its package count; exits non-zero on
# any failure. Everything (the server, the root filesystem) is removed on exit. Needs root (for
# mmdebstrap's root mode and chroot): it re-runs itself through sudo otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
if [ "$(id -u)" -ne 0 ]; then
  exec sudo --preserve-env=VIGNETTE_BIN,SWIFT,FACE_MODEL,BUILD_ROOT,SWIFT_ROOT "$repo/Scripts/image-check.sh" "$@"
fi
start=$(date +%s)
# shellcheck source=Scripts/debian-root.sh
source Scripts/debian-root.sh

suite=${1:-bookworm}
case "$suite" in
  bookworm | trixie) ;;
  *) echo "usage: Scripts/image-check.sh [bookworm|trixie]" >&2; exit 2 ;;
esac
packages_file=deploy/runtime-packages-$suite.txt
unit=deploy/vignette.service
uid=10001
size_box=64

fail() {
  echo "image-check: FAIL: $*" >&2
  exit 1
}

# mmdebstrap, curl, libvips' tools (the answers' decoding), ffmpeg (the clip), systemd-analyze,
# strip.
Scripts/install-packages.sh mmdebstrap curl libvips-tools ffmpeg systemd binutils

work=$(mktemp -d /tmp/vignette-image-check.XXXXXX)
rootfs=$work/rootfs
server_pid=
cleanup() {
  local status=$?
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  # The server's /proc and /sys were mounted in its own mount namespace, gone with it;
  # --one-file-system would not cross a mount left behind anyway.
  rm -rf --one-file-system "$work"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
release_build="swift build -c release --static-swift-stdlib --product vignette --traits CLI,Video,Faces"
host_suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
bin=${VIGNETTE_BIN:-}
if [ -n "$bin" ]; then
  [ -x "$bin" ] || fail "VIGNETTE_BIN=$bin is not an executable file"
elif [ "$suite" = "$host_suite" ]; then
  bin=$repo/.build/release/vignette
  if [ ! -x "$bin" ]; then
    make --no-print-directory install-deps
    echo "== building the release binary (.build/release/vignette)"
    ${release_build/swift/${SWIFT:-swift}}
  fi
else
  # The binary links the release's libraries, so it is built on that release, from the committed HEAD.
  build_root=${BUILD_ROOT:-$work/build-root}
  if [ ! -x "$build_root/usr/bin/apt-get" ]; then
    echo "== build root: Debian $suite minbase + the Swift toolchain's prerequisites ($build_root)"
    debian_root "$suite" "$build_root" "$work/build-root.log" "${debian_prerequisites[@]}" \
      || { tail -n 20 "$work/build-root.log" >&2; fail "mmdebstrap could not build the $suite build root"; }
  fi
  debian_checkout "$build_root" "$repo"
  echo "== building the release binary on Debian $suite ($(git log -1 --format=%h))"
  debian_run "$build_root" "make --no-print-directory install-deps && $release_build" >"$work/build.log" 2>&1 \
    || { tail -n 30 "$work/build.log" >&2; fail "the release build on $suite failed"; }
  bin=$build_root/src/vignette/.build/release/vignette
fi
bin=$(readlink -f "$bin")


mapfile -t sources < <(debian_sources "$suite")
[ ${#sources[@]} -gt 0 ] || fail "this machine's apt sources have no Debian repository"

packages=$(sed -e 's/#.*//' "$packages_file" | xargs)
[ -n "$packages" ] || fail "$packages_file names no package"

echo "== root filesystem: Debian $suite minbase + $packages_file ($(wc -w <<<"$packages") packages)"
printf '   %s\n' "${sources[@]}"
# As debian:$suite-slim is made: merged /usr set up as debootstrap does (the usr-is-merged
# package, not usrmerge and the perl it needs), and its dpkg exclusions (docs but their copyright
# files, man and info pages, locales), so that the size and package count are the image's.
if ! mmdebstrap --mode=root --variant=minbase --format=directory \
    --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
    --aptopt='APT::Install-Recommends "false"' \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
    --dpkgopt='path-exclude=/usr/share/groff/*' --dpkgopt='path-exclude=/usr/share/lintian/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    --include="${packages// /,}" "$suite" "$rootfs" "${sources[@]}" >"$work/mmdebstrap.log" 2>&1; then
  tail -n 30 "$work/mmdebstrap.log" >&2
  fail "mmdebstrap could not build the root filesystem"
fi

# As the Dockerfile does: the binary without its DWARF debug information (its symbols stay).
install -m 0755 "$bin" "$rootfs/usr/local/bin/vignette"
strip --strip-debug "$rootfs/usr/local/bin/vignette"
install -m 0755 deploy/healthcheck.sh "$rootfs/usr/local/bin/vignette-healthcheck"
chroot "$rootfs" groupadd --gid "$uid" vignette
chroot "$rootfs" useradd --uid "$uid" --gid vignette --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin vignette
chroot "$rootfs" install -d -o vignette -g vignette -m 0750 /var/cache/vignette

rootfs_size=$(du -sh --one-file-system "$rootfs" | cut -f1)
package_count=$(chroot "$rootfs" dpkg-query -W -f='${db:Status-Abbrev}\n' | grep -c '^ii')
echo "== root filesystem with the binary: $rootfs_size, $package_count packages"

echo "== ldd inside the root filesystem: the binary, libvips' modules and the libraries it opens (libheif, OpenCV's objdetect, FFmpeg's)"
mapfile -t modules < <(cd "$rootfs" && find usr/lib -path '*/vips-modules-*' -name '*.so' | sed 's|^|/|')
# The libraries the binary opens with dlopen: libheif (HEIF, AVIF), OpenCV's objdetect (faces) and
# FFmpeg's four (video).
opened=()
for pattern in 'libheif.so.*' 'libopencv_objdetect.so.*' 'libavformat.so.*' 'libavcodec.so.*' 'libavutil.so.*' 'libswscale.so.*'; do
  library=$(cd "$rootfs" && find usr/lib -name "$pattern" -type f | head -n 1 | sed 's|^|/|')
  [ -n "$library" ] || fail "no $pattern in the root filesystem ($packages_file)"
  opened+=("$library")
done
# libheif's codec plugins, where the release has them as plugins (Debian 13): the HEVC and AV1
# decoders and the x265 and aom encoders.
mapfile -t plugins < <(cd "$rootfs" && find usr/lib -path '*/libheif/plugins/*.so' | sed 's|^|/|')
for plugin in libde265 dav1d x265 aomenc; do
  [ "$suite" = bookworm ] || printf '%s\n' "${plugins[@]}" | grep -q "libheif-$plugin.so" \
    || fail "no libheif plugin $plugin in the root filesystem ($packages_file)"
done
opened+=(${plugins[@]+"${plugins[@]}"})
for file in /usr/local/bin/vignette "${modules[@]}" "${opened[@]}"; do
  if ! libraries=$(chroot "$rootfs" ldd "$file" 2>&1); then
    fail "ldd $file: $libraries"
  fi
  if grep -q "not found" <<<"$libraries"; then
    grep "not found" <<<"$libraries" >&2
    fail "ldd $file: libraries not found in the root filesystem"
  fi
  echo "   $file: $(grep -c '=>' <<<"$libraries") libraries, all found"
done

# The sources the server reads: fixtures, and a 2-second H.264 MP4 clip.
images=$rootfs/srv/images
mkdir -p "$images"
cp Fixtures/baseline.jpg Fixtures/thumbnail.heic Tests/Photos/pair.jpg "$images/"
# The YuNet model the release's OpenCV runs: 2022mar before OpenCV 4.8 (libopencv_objdetect.so.4.6.0
# on Debian 12), 2023mar from 4.8 on (.so.4.10.0 on Debian 13).
opencv_minor=$(printf '%s\n' "${opened[@]}" | sed -n 's|.*/libopencv_objdetect\.so\.4\.\([0-9]*\)\..*|\1|p' | head -n 1)
[ -n "$opencv_minor" ] || fail "cannot tell OpenCV's version from ${opened[*]}"
model_name=face_detection_yunet_2022mar.onnx
[ "$opencv_minor" -lt 8 ] || model_name=face_detection_yunet_2023mar.onnx
face_model=${FACE_MODEL:-$(dirname "$repo")/shared/models/$model_name}
faces=()
if [ -f "$face_model" ]; then
  install -D -m 0644 "$face_model" "$rootfs/usr/local/share/vignette/$model_name"
  faces=(--face-model "/usr/local/share/vignette/$model_name")
fi
ffmpeg -loglevel error -f lavfi -i testsrc=size=320x240:rate=25:duration=2 -c:v libx264 -pix_fmt yuv420p \
  -movflags +faststart "$images/clip.mp4"
chmod -R a+rX "$images"

echo "== vignette serve in the root filesystem, as uid $uid"
log=$work/serve.log
unshare --mount --propagation private sh -c '
  root=$1 user=$2; shift 2
  mount -t proc proc "$root/proc" && mount -t sysfs -o ro sysfs "$root/sys" &&
  exec chroot --userspec="$user:$user" "$root" env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/nonexistent \
    vignette serve --root /srv/images --bind 127.0.0.1:0 --allow-video "$@"' sh "$rootfs" "$uid" "${faces[@]}" >"$log" 2>&1 &
server_pid=$!
port=
for _ in $(seq 1 300); do
  port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\).*|\1|p' "$log" | head -n 1)
  [ -n "$port" ] && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$log" >&2; fail "vignette serve exited before listening"; }
  sleep 0.1
done
[ -n "$port" ] || { cat "$log" >&2; fail "vignette serve did not listen within 30 s"; }
user=$(ps -o uid= -p "$server_pid" | tr -d ' ')
[ "$user" = "$uid" ] || fail "the server runs as uid $user, not $uid"
echo "   listening on 127.0.0.1:$port as uid $user"
grep "memory caps" "$log" | sed 's/^/   /' || true

base=http://127.0.0.1:$port
fetch() { # URL_PATH OUTPUT: prints "STATUS CONTENT_TYPE"
  curl --noproxy '*' -sS --max-time 60 -o "$2" -w '%{http_code} %{content_type}' "$base$1"
}

answer=$(fetch /health "$work/health")
[ "${answer%% *}" = 200 ] || fail "/health answered $answer"
echo "   /health: 200"

if ! chroot --userspec="$uid:$uid" "$rootfs" /usr/local/bin/vignette-healthcheck "127.0.0.1:$port"; then
  fail "the image's HEALTHCHECK probe (vignette-healthcheck) failed"
fi
echo "   vignette-healthcheck (the image's HEALTHCHECK): passes"

check_image() { # URL_PATH CONTENT_TYPE
  local path=$1 type=$2 file answer width height
  file=$work/answer-$(tr -c 'a-zA-Z0-9' '_' <<<"$path")
  answer=$(fetch "$path" "$file") || fail "$path: curl failed"
  if [ "$answer" != "200 $type" ]; then
    head -c 300 "$file" >&2; echo >&2
    fail "$path answered \"$answer\", wanted \"200 $type\""
  fi
  # libvips' warnings (heifload's "ignoring nclx profile") go to a file, shown on failure.
  width=$(vipsheader -f width "$file" 2>"$work/vips.log") || { cat "$work/vips.log" >&2; fail "$path: vipsheader cannot read the answer"; }
  height=$(vipsheader -f height "$file" 2>"$work/vips.log")
  vips avg "$file[fail_on=warning]" >/dev/null 2>"$work/vips.log" || { cat "$work/vips.log" >&2; fail "$path: the answer does not decode"; }
  { [ "$width" -le "$size_box" ] && [ "$height" -le "$size_box" ] && { [ "$width" -eq "$size_box" ] || [ "$height" -eq "$size_box" ]; }; } \
    || fail "$path: ${width}x$height does not fit $size_box px"
  echo "   $path: $type, ${width}x$height, $(stat -c %s "$file") bytes, decodes"
}
box=rs:fit:$size_box:$size_box
check_image "/insecure/$box/plain/local:///baseline.jpg" image/jpeg
check_image "/insecure/$box/plain/local:///baseline.jpg@webp" image/webp
check_image "/insecure/$box/plain/local:///baseline.jpg@avif" image/avif
check_image "/insecure/$box/plain/local:///thumbnail.heic@jpg" image/jpeg
check_image "/insecure/$box/plain/local:///clip.mp4@jpg" image/jpeg
if [ ${#faces[@]} -gt 0 ]; then
  crop=$(curl --noproxy '*' -sS --max-time 60 -o "$work/faces.jpg" -D - "$base/insecure/rs:fill:$size_box:$size_box/g:obj:face/plain/local:///pair.jpg" \
    | tr -d '\r' | sed -n 's/^[Vv]ignette-[Cc]rop: //p')
  [ "$crop" = "faces; n=2" ] || fail "g:obj:face of pair.jpg: Vignette-Crop is \"$crop\", wanted \"faces; n=2\""
  echo "   /insecure/rs:fill:$size_box:$size_box/g:obj:face/…/pair.jpg: Vignette-Crop: $crop (OpenCV opened in the image)"
else
  echo "   no face model at $face_model: g:obj:face not checked"
fi

echo "== SIGTERM"
kill -TERM "$server_pid"
stop_status=0
wait "$server_pid" || stop_status=$?
server_pid=
[ "$stop_status" -eq 0 ] || { tail -n 20 "$log" >&2; fail "vignette serve exited $stop_status after SIGTERM"; }
echo "   vignette serve exited 0"

echo "== systemd-analyze verify $unit"
mkdir -p "$work/unit"
sed "s|^ExecStart=/usr/local/bin/vignette |ExecStart=$bin |" "$unit" >"$work/unit/vignette.service"
grep -q "^ExecStart=$bin " "$work/unit/vignette.service" || fail "$unit: no ExecStart=/usr/local/bin/vignette line"
systemd-analyze verify "$work/unit/vignette.service" || fail "systemd-analyze verify $unit"
echo "   passes (ExecStart pointed at $bin)"
systemd-analyze security --offline=true "$work/unit/vignette.service" 2>/dev/null | grep "Overall exposure" | sed 's/^→ */   /' || true

echo "== image-check passed in $(( $(date +%s) - start )) s: root filesystem $rootfs_size, $package_count packages"
