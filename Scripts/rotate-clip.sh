#!/usr/bin/env bash
# Copies the video IN to OUT, its streams copied as they are, with a display matrix that turns it a
# quarter turn (the video tests and FuzzVideo's seeds): the same matrix, which ffprobe shows as
# rotation 90, from both kinds of ffmpeg. ffmpeg 6.1 and later take the input option
# -display_rotation and no longer turn the output's `rotate` tag into a matrix; earlier ones have
# only the tag.
#   Scripts/rotate-clip.sh IN OUT
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: Scripts/rotate-clip.sh IN OUT" >&2; exit 2; }
# grep reads the whole help (no -q): under pipefail, ffmpeg stopped by SIGPIPE would fail the test.
if ffmpeg -hide_banner -h long 2>/dev/null | grep -- '-display_rotation' >/dev/null; then
  exec ffmpeg -v error -y -display_rotation:v:0 90 -i "$1" -c copy "$2"
fi
exec ffmpeg -v error -y -i "$1" -c copy -metadata:s:v:0 rotate=90 "$2"
