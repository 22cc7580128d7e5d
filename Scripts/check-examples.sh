#!/usr/bin/env bash
# The example packages' manifests, checked in a second (make test): each evaluates, and every
# product and trait it asks of Vignette exists in Package.swift. Their sources are targets of the
# main package too (Package.swift), so `swift build --enable-all-traits` compiles them with the rest.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
main=$(mktemp)
trap 'rm -f "$main"' EXIT
"$SWIFT" package dump-package > "$main"
for example in examples/*/Package.swift; do
  folder=$(dirname "$example")
  "$SWIFT" package --package-path "$folder" dump-package | python3 -c '
import json, sys
main = json.load(open(sys.argv[1])); example = json.load(sys.stdin); name = sys.argv[2]
products = {p["name"] for p in main["products"]}
traits = {t["name"] for t in main.get("traits", [])}
problems = []
for kind in example["dependencies"]:
    for dependency in kind.get("fileSystem", []):
        if dependency.get("nameForTargetDependencyResolutionOnly") != "Vignette":
            continue
        asked = {t["name"] for t in dependency.get("traits") or []} - {"default"}
        problems += ["no trait %s" % t for t in sorted(asked - traits)]
for target in example["targets"]:
    for dependency in target["dependencies"]:
        product = dependency.get("product")
        if product and product[1] == "Vignette" and product[0] not in products:
            problems.append("no product %s" % product[0])
if problems:
    print("check-examples: %s asks Vignette for what it lacks: %s" % (name, ", ".join(problems)), file=sys.stderr)
    sys.exit(1)
print("check-examples: %s: its products and traits are Vignette'"'"'s" % name)
' "$main" "$folder"
done
