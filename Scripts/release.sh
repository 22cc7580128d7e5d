#!/usr/bin/env bash
# Tags a release: `Scripts/release.sh VERSION` makes the annotated tag VERSION (plain semver, no
# `v`: SwiftPM's `from:` matches tags like 0.1.0) on HEAD, its message the version's section of
# CHANGELOG.md. It never pushes; it prints the push to make. `--dry-run` checks and prints the
# message without tagging.
#
# It refuses (exit 1, one line saying why) unless:
#   - VERSION is semantic, MAJOR.MINOR.PATCH (no pre-release or build suffix);
#   - the working tree is clean (no changes, staged or not, and no untracked files);
#   - VignetteVersion.current (Sources/VignetteSupport/VignetteVersion.swift) is VERSION;
#   - no tag VERSION exists yet;
#   - CHANGELOG.md has a heading `## [VERSION] - YYYY-MM-DD` and a link `[VERSION]: …` for it;
#   - CHANGELOG.md's [Unreleased] section lists nothing: its changes belong under the version being
#     released, so they are moved there (its `### …` headings may stay, empty) before tagging.
# Scripts/check-core-dependencies.sh (make test) runs it in a temporary clone: each refusal, then
# the tag a package resolves with `from:`.
set -euo pipefail
cd "$(dirname "$0")/.."

refuse() { echo "release: $*" >&2; exit 1; }

dry_run=false
if [ "${1:-}" = "--dry-run" ]; then dry_run=true; shift; fi
[ $# -eq 1 ] || { echo "usage: Scripts/release.sh [--dry-run] VERSION   (e.g. 0.1.0)" >&2; exit 2; }
version=$1

[[ $version =~ ^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$ ]] ||
  refuse "'$version' is not a semantic version MAJOR.MINOR.PATCH (e.g. 0.1.0, no 'v')"

[ -z "$(git status --porcelain)" ] ||
  refuse "the working tree is not clean (git status): commit or remove what it lists first"

current=$(sed -nE 's/.*static let current = "([^"]*)".*/\1/p' Sources/VignetteSupport/VignetteVersion.swift)
[ -n "$current" ] || refuse "no VignetteVersion.current in Sources/VignetteSupport/VignetteVersion.swift"
[ "$current" = "$version" ] ||
  refuse "VignetteVersion.current is $current, not $version: set it in Sources/VignetteSupport/VignetteVersion.swift"

if git rev-parse -q --verify "refs/tags/$version" >/dev/null; then
  refuse "the tag $version exists already (on $(git rev-list -n 1 "refs/tags/$version" | cut -c1-12))"
fi

[ -f CHANGELOG.md ] || refuse "no CHANGELOG.md"
escaped=${version//./\\.}
grep -qE "^## \[$escaped\] - [0-9]{4}-[0-9]{2}-[0-9]{2}\$" CHANGELOG.md ||
  refuse "CHANGELOG.md has no heading '## [$version] - YYYY-MM-DD'"
grep -qE "^\[$escaped\]: " CHANGELOG.md ||
  refuse "CHANGELOG.md has no link reference '[$version]: …' at its bottom"

# Entries of [Unreleased]: list items between its heading and the next `## ` heading.
unreleased=$(awk '/^## \[[Uu]nreleased\]/ { inside = 1; next } /^## / { inside = 0 } inside && /^[[:space:]]*[-*+] / { n++ } END { print n + 0 }' CHANGELOG.md)
[ "$unreleased" -eq 0 ] ||
  refuse "CHANGELOG.md's [Unreleased] still lists $unreleased change(s): move them under '## [$version]' first"

# The version's section: from its heading to the next `## ` heading or the link references.
notes=$(awk -v heading="## [$version] - " '
  index($0, heading) == 1 { inside = 1; next }
  inside && (/^## / || /^\[[^]]+\]: /) { exit }
  inside { print }' CHANGELOG.md | sed -e '/./,$!d')
[ -n "$(echo "$notes" | tr -d '[:space:]')" ] || refuse "CHANGELOG.md's [$version] section is empty"
date=$(grep -E "^## \[$escaped\] - " CHANGELOG.md | head -n 1 | sed -E 's/.* - //')
message=$(printf 'Vignette %s (%s)\n\n%s\n' "$version" "$date" "$notes")

if $dry_run; then
  echo "$message"
  echo "release: $version passes every check (dry run: no tag made)" >&2
  exit 0
fi

# whitespace, not the default strip: the notes' `### Added` lines are not comments.
git tag -a "$version" --cleanup=whitespace -F - <<<"$message"
echo "release: tagged $version on $(git rev-parse --short HEAD); nothing was pushed. To publish: git push origin $version" >&2
