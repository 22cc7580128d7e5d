#!/usr/bin/env bash
# The core resolves alone (make test): a package of a user's own that depends on this checkout for
# the `Vignette` product only, once by path and once by URL (a local git clone), is resolved, and
# every package in its Package.resolved must be one the core needs. Resolution only: seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
# What the core needs: swift-log, swift-metrics, swift-distributed-tracing and what they bring.
allowed=" swift-log swift-metrics swift-distributed-tracing swift-service-context swift-atomics "
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

check() { # how ("path" or "url"), the .package line, the package name products are named by
  local how=$1 line=$2 name=$3 folder="$work/$1"
  mkdir -p "$folder/Sources/App"
  cat > "$folder/Package.swift" <<MANIFEST
// swift-tools-version:6.1
import PackageDescription
let package = Package(
    name: "App",
    dependencies: [$line],
    targets: [.executableTarget(name: "App", dependencies: [.product(name: "Vignette", package: "$name")])]
)
MANIFEST
  echo 'import Vignette' > "$folder/Sources/App/main.swift"
  swift package --package-path "$folder" resolve >/dev/null 2>"$folder/resolve.log" || { cat "$folder/resolve.log" >&2; exit 1; }
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

# The checkout as a git repository of its own, for the URL form (its committed state and the
# working tree's Package.swift, which is what this check is about).
git clone -q --no-hardlinks "$repo" "$work/vignette.git" 2>/dev/null
cp "$repo/Package.swift" "$work/vignette.git/Package.swift"
git -C "$work/vignette.git" -c user.name=check -c user.email=check@localhost commit -qam "working tree" >/dev/null || true
git -C "$work/vignette.git" tag -f 99.0.0 >/dev/null

check path ".package(name: \"Vignette\", path: \"$repo\")" Vignette
check url ".package(url: \"file://$work/vignette.git\", from: \"99.0.0\")" vignette
