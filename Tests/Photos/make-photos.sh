#!/usr/bin/env bash
# Makes the photos of people the face tests use (see SOURCES.md), from public-domain originals:
# US federal government portraits and a NASA photograph, read from local clones of the
# repositories SOURCES.md names (FACE_RECOGNITION_REPO, SCIKIT_IMAGE_REPO: git directories).
# Each is brought to at most 800 px on its long side (JPEG q85, metadata stripped); pair.jpg puts
# two portraits side by side, edge.jpg keeps a face at the left edge of a wide frame.
set -euo pipefail
cd "$(dirname "$0")"
: "${FACE_RECOGNITION_REPO:?a git directory of ageitgey/face_recognition}"
: "${SCIKIT_IMAGE_REPO:?a git directory of scikit-image/scikit-image}"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
git -C "$FACE_RECOGNITION_REPO" show 2e2dcce:examples/obama.jpg > "$work/obama.jpg"
git -C "$FACE_RECOGNITION_REPO" show 2e2dcce:examples/biden.jpg > "$work/biden.jpg"
git -C "$SCIKIT_IMAGE_REPO" show cd0a3d22b:src/_skimage2/data/astronaut.png > "$work/astronaut.png"
save() { vips thumbnail "$1" "$2[Q=85,strip]" 800 --size down; }
save "$work/obama.jpg" obama.jpg
save "$work/biden.jpg" biden.jpg
save "$work/astronaut.png" astronaut.jpg
# Two people 400 px apart on a grey ground: a square crop of the height cannot hold both.
vips thumbnail "$work/obama.jpg" "$work/o.v" 600 --height 600 --size down
vips thumbnail "$work/biden.jpg" "$work/b.v" 600 --height 600 --size down
vips embed "$work/o.v" "$work/o-wide.v" 0 0 880 600 --extend background --background "128 128 128"
vips insert "$work/o-wide.v" "$work/b.v" "$work/pair.v" 880 0 --expand --background "128 128 128"
vips copy "$work/pair.v" "pair.jpg[Q=85,strip]"
# A face at the left edge of a frame three times as wide.
vips embed "$work/o.v" "$work/edge.v" 0 0 1440 600 --extend background --background "90 110 130"
vips copy "$work/edge.v" "edge.jpg[Q=85,strip]"
