#!/usr/bin/env bash
# The DocC documentation of every library module, one archive a module into .build/docs/<Module>,
# from the symbol graphs of the main build (swift package dump-symbol-graph builds nothing that
# `swift build --enable-all-traits` has built already) and each module's catalogue
# (Sources/<Module>/<Module>.docc), with the toolchain's own `docc`: no second build, no plugin.
#
#   Scripts/docs.sh [--warnings-as-errors]
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
modules=(Vignette VignetteCodecs VignetteImgproxy VignetteHTTP VignetteServer VignetteHummingbird VignetteVapor VignetteRedis)
graphs=$("$SWIFT" package --enable-all-traits dump-symbol-graph --skip-synthesized-members 2>&1 | grep -oE '[^ ]*/symbolgraph/?$' | tail -1)
[ -d "$graphs" ] || { echo "docs: no symbol graphs from swift package dump-symbol-graph" >&2; exit 1; }
docc=$(dirname "$(command -v "$SWIFT")")/docc
command -v "$docc" >/dev/null || docc=docc
mkdir -p .build/docs
status=0
for module in "${modules[@]}"; do
  own=$(mktemp -d)
  cp "$graphs/$module.symbols.json" "$own/"
  cp "$graphs/$module"@*.symbols.json "$own/" 2>/dev/null || true
  if ! "$docc" convert "Sources/$module/$module.docc" --additional-symbol-graph-dir "$own" \
      --output-path ".build/docs/$module" --fallback-display-name "$module" \
      --fallback-bundle-identifier "vignette.$module" --transform-for-static-hosting "$@" > "$own/docc.log" 2>&1; then
    echo "docs: $module:" >&2
    cat "$own/docc.log" >&2
    status=1
  fi
  rm -rf "$own"
done
[ $status = 0 ] && echo "docs: ${#modules[@]} modules into .build/docs/ (${modules[*]})"
exit $status
