#!/usr/bin/env bash
# Seeds for FuzzVideo, made with Debian's ffmpeg into FOLDER: tiny clips of each container and
# codec the poster path reads (MP4/H.264, MOV/HEVC 10-bit, WebM/VP9, MKV/AV1, AVI/MJPEG, MPEG-TS,
# FLV), one rotated by its display matrix, one cut short. FuzzVideo reads its first byte as the
# second to seek to (0: the first frame), so each clip gets a 0 byte and a 0x08 (1 s) before it.
set -euo pipefail
folder=$1
mkdir -p "$folder"
command -v ffmpeg >/dev/null || { echo "make-video-seeds.sh: ffmpeg is not installed" >&2; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=(-v error -y -f lavfi -i "testsrc2=s=64x48:r=10:d=2")
ffmpeg "${src[@]}" -c:v libx264 -g 10 "$tmp/h264.mp4"
ffmpeg "${src[@]}" -c:v libx265 -x265-params log-level=none -pix_fmt yuv420p10le -g 10 "$tmp/hevc10.mov"
ffmpeg "${src[@]}" -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -b:v 100k "$tmp/vp9.webm"
ffmpeg "${src[@]}" -c:v libaom-av1 -cpu-used 8 -b:v 100k "$tmp/av1.mkv"
ffmpeg "${src[@]}" -c:v mjpeg -q:v 8 "$tmp/mjpeg.avi"
ffmpeg "${src[@]}" -c:v libx264 -g 100 "$tmp/h264.ts"
ffmpeg "${src[@]}" -c:v flv1 "$tmp/flv1.flv"
"$(dirname "$0")/../Scripts/rotate-clip.sh" "$tmp/h264.mp4" "$tmp/rotated.mov"
ffmpeg -v error -y -i "$tmp/h264.mp4" -c copy -movflags +faststart "$tmp/faststart.mp4"
head -c "$(( $(stat -c %s "$tmp/faststart.mp4") / 2 ))" "$tmp/faststart.mp4" > "$tmp/cut.mp4"
for clip in "$tmp"/*; do
  name=$(basename "$clip")
  { printf '\x00'; cat "$clip"; } > "$folder/video-first-$name"
  { printf '\x08'; cat "$clip"; } > "$folder/video-1s-$name"
done
