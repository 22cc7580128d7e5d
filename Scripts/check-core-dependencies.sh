#!/usr/bin/env bash
# The core resolves alone and a user's package builds on a release tag (make test):
#
# 1. A package of a user's own that depends on this checkout for the `Vignette` product only is
#    resolved once by path and once by URL (a local git clone, `from: "<VignetteVersion.current>"`);
#    every package in its Package.resolved must be one the core needs, and the URL form must have
#    resolved the version's plain tag (SwiftPM's `from:` matches `0.1.0`, not `v0.1.0`).
# 2. Scripts/release.sh is run in that clone: each of its refusals (a version that is not semver, a
#    working tree that is not clean, a version other than VignetteVersion.current, a changelog with
#    no heading for it, an [Unreleased] section that still lists changes, a tag that exists) is
#    expected, then it makes the tag that the URL form resolves.
# 3. The URL form is built (the core alone: swift-log, swift-metrics, swift-distributed-tracing and
#    the C targets) in its own scratch folder in the temporary folder, under nice, and run once: one
#    pipeline call on a fixture.
#
# The real repository is never touched: its tag, if it has one already, is left alone, and the
# clone's is remade on the working tree's manifest and release files.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
# What the core needs: swift-log, swift-metrics, swift-distributed-tracing and what they bring.
allowed=" swift-log swift-metrics swift-distributed-tracing swift-service-context swift-atomics "
version=$(sed -nE 's/.*static let current = "([^"]*)".*/\1/p' Sources/VignetteSupport/VignetteVersion.swift)
[ -n "$version" ] || { echo "check-core-dependencies: no VignetteVersion.current" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The clone's commits and tags are the check's own, whatever the user's git configuration says.
export GIT_AUTHOR_NAME=check GIT_AUTHOR_EMAIL=check@localhost GIT_COMMITTER_NAME=check GIT_COMMITTER_EMAIL=check@localhost
export GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=tag.gpgSign GIT_CONFIG_VALUE_0=false GIT_CONFIG_KEY_1=commit.gpgSign GIT_CONFIG_VALUE_1=false

manifest() { # folder, the .package line, the package name products are named by
  mkdir -p "$1/Sources/App"
  cat > "$1/Package.swift" <<MANIFEST
// swift-tools-version:6.1
import PackageDescription
let package = Package(
    name: "App",
    dependencies: [$2],
    targets: [.executableTarget(name: "App", dependencies: [.product(name: "Vignette", package: "$3")])]
)
MANIFEST
  cat > "$1/Sources/App/main.swift" <<'SWIFT'
import Vignette

// One call of the core: a thumbnail of the file named, at most 64 pixels a side.
let pipeline = ImagePipeline(configuration: ImagePipeline.Configuration())
let image = try await pipeline.image(for: ImageRequest(path: CommandLine.arguments[1], thumbnail: ThumbnailOptions(size: 64)))
print(image.width, image.height)
SWIFT
}

check() { # how ("path" or "url"), the .package line, the package name products are named by
  local how=$1 line=$2 name=$3 folder="$work/$1"
  manifest "$folder" "$line" "$name"
  swift package --package-path "$folder" --scratch-path "$folder/.build" resolve >/dev/null 2>"$folder/resolve.log" ||
    { cat "$folder/resolve.log" >&2; exit 1; }
  local packages extra=""
  # A URL dependency is listed itself (grep -vx); what matters is what it brings.
  packages=$(grep -oE '"identity" : "[^"]+"' "$folder/Package.resolved" 2>/dev/null | cut -d'"' -f4 | grep -vx "$name" | sort | tr '\n' ' ')
  for package in $packages; do
    [[ $allowed == *" $package "* ]] || extra+="$package "
  done
  if [ -n "$extra" ]; then
    echo "check-core-dependencies: by $how, the core resolves packages it does not need: $extra" >&2
    exit 1
  fi
  echo "check-core-dependencies: by $how, the core resolves ${packages:-nothing}"
}

# The checkout as a git repository of its own, for the URL form: its committed state with the
# working tree's manifest and release files, which are what this check is about.
clone=$work/vignette.git
git clone -q --no-hardlinks "$repo" "$clone" 2>/dev/null
release_files=(Package.swift CHANGELOG.md Scripts/release.sh Sources/VignetteSupport/VignetteVersion.swift)
for file in "${release_files[@]}"; do cp "$repo/$file" "$clone/$file"; done
git -C "$clone" add "${release_files[@]}"
git -C "$clone" commit -qm "working tree" >/dev/null || true
git -C "$clone" tag -d "$version" >/dev/null 2>&1 || true

# Scripts/release.sh's refusals, each with the reason it must give.
refused() { # what is refused, the reason expected in its message, release.sh's arguments…
  local what=$1 reason=$2 status=0
  shift 2
  "$clone/Scripts/release.sh" "$@" >/dev/null 2>"$work/release.log" || status=$?
  if [ "$status" -ne 1 ] || ! grep -qF "$reason" "$work/release.log"; then
    echo "check-core-dependencies: release.sh $* should refuse $what ('$reason'); it exited $status:" >&2
    cat "$work/release.log" >&2
    exit 1
  fi
}
changelog() { # the clone's CHANGELOG.md with [Unreleased] emptied; then the line given (if any) under its heading
  awk -v line="${1:-}" '
    /^## \[[Uu]nreleased\]/ { print; print ""; if (line != "") { print line; print "" }; skip = 1; next }
    skip && /^## / { skip = 0 }
    !skip { print }' "$repo/CHANGELOG.md" > "$clone/CHANGELOG.md"
  git -C "$clone" commit -qam "changelog: ${2:-as released}" >/dev/null
}
IFS=. read -r major minor patch <<<"$version"
refused "a version that is not semver" "is not a semantic version" "v$version"
refused "a version that is not semver" "is not a semantic version" "$major.$minor"
touch "$clone/stray"
refused "a working tree that is not clean" "the working tree is not clean" "$version"
rm "$clone/stray"
refused "a version other than the code's" "VignetteVersion.current is $version, not $major.$minor.$((patch + 1))" "$major.$minor.$((patch + 1))"
changelog "- **Breaking:** a change not yet released" "an unreleased change"
refused "a changelog whose [Unreleased] lists changes" "[Unreleased] still lists 1 change" "$version"
changelog
sed -i "s/^## \[$version\] - /## [$version-draft] - /" "$clone/CHANGELOG.md"
git -C "$clone" commit -qam "changelog: no heading for the version" >/dev/null
refused "a changelog with no heading for the version" "has no heading '## [$version] - YYYY-MM-DD'" "$version"
changelog
"$clone/Scripts/release.sh" "$version" 2>"$work/release.log" || { cat "$work/release.log" >&2; exit 1; }
notes=$(git -C "$clone" tag -l --format='%(contents)' "$version")
if [ "$(git -C "$clone" cat-file -t "refs/tags/$version")" != tag ] ||
   ! grep -q "^Vignette $version (" <<<"$notes" || ! grep -q '^### Added' <<<"$notes"; then
  echo "check-core-dependencies: release.sh $version made no annotated tag with the changelog's section" >&2
  exit 1
fi
refused "a tag that exists" "the tag $version exists already" "$version"
echo "check-core-dependencies: release.sh refuses what it must, and tags $version"

check path ".package(name: \"Vignette\", path: \"$repo\")" Vignette
check url ".package(url: \"file://$clone\", from: \"$version\")" vignette
grep -qE "\"version\" : \"${version//./\\.}\"" "$work/url/Package.resolved" || {
  echo "check-core-dependencies: from: \"$version\" did not resolve the tag $version:" >&2
  cat "$work/url/Package.resolved" >&2
  exit 1
}

# The URL form built and run: the core alone, in the temporary folder's scratch, at low priority.
start=$(date +%s)
nice -n 10 swift build --package-path "$work/url" --scratch-path "$work/url/.build" >"$work/build.log" 2>&1 ||
  { tail -n 40 "$work/build.log" >&2; exit 1; }
size=$("$work/url/.build/debug/App" "$repo/Fixtures/baseline.jpg")
[[ $size =~ ^[0-9]+\ [0-9]+$ ]] && [[ " $size " == *" 64 "* ]] ||
  { echo "check-core-dependencies: the package built on $version made a thumbnail of '$size', not 64 pixels a side" >&2; exit 1; }
echo "check-core-dependencies: a package on $version builds in $(( $(date +%s) - start )) s and makes a ${size/ /×} thumbnail"
