#!/usr/bin/env bash
# The whole test suite under AddressSanitizer, then under ThreadSanitizer, each in a build folder
# of its own (.build-asan, .build-tsan). Exits 1 on any report or failed test. (Swift 6.3 on
# Linux refuses -sanitize=undefined, so UndefinedBehaviorSanitizer is not among them.) Leak detection is off: libvips, GLib and libheif keep process-wide caches
# (type registries, thread pools) that LeakSanitizer reports at exit.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
status=0
run() { # name sanitizer-flags...
  local name=$1; shift
  local scratch=".build-$name"
  echo "== $name: building the tests into $scratch" >&2
  "$SWIFT" build --build-tests --enable-all-traits --scratch-path "$scratch" "$@" >&2
  echo "== $name: running the tests" >&2
  if ! "$SWIFT" test --skip-build --parallel --enable-all-traits --scratch-path "$scratch" "$@" 2>&1 | tee ".build-$name.log" | grep -E "Test run|✘|SUMMARY:|WARNING: ThreadSanitizer|ERROR: AddressSanitizer|runtime error:" ; then
    :
  fi
  if grep -qE "SUMMARY: (Address|Thread|UndefinedBehavior)Sanitizer|ERROR: AddressSanitizer|WARNING: ThreadSanitizer|runtime error:|Test run with .* failed" ".build-$name.log"; then
    echo "$name: reports or failures, see .build-$name.log" >&2
    status=1
  fi
}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
# The tests' waits for something to happen (`eventually`) last 5 times as long: CPU-bound tests are
# ten times slower here and hold Swift's cooperative pool for minutes (Tests/TestTiming).
export VIGNETTE_TEST_TIME_SCALE=${VIGNETTE_TEST_TIME_SCALE:-5}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=0}
# GLib's slice allocator hands a freed object's memory to another thread through its own
# uninstrumented magazines, so ThreadSanitizer takes two threads' writes to two different
# VipsImages in one recycled block for a race; plain malloc lets it see the hand-over.
export G_SLICE=${G_SLICE:-always-malloc}
# SANITIZERS picks the runs (default both: "asan tsan").
for name in ${SANITIZERS:-asan tsan}; do
  case $name in
    # Their shadow memory counts in RSS: memory bounds in the tests are multiplied by
    # VIGNETTE_TEST_MEMORY_SCALE (ThreadSanitizer's shadow is several times the memory it watches).
    asan) export VIGNETTE_TEST_MEMORY_SCALE=2; run asan --sanitize=address ;;
    # swift-otel does not compile in Swift 6 mode under -sanitize=thread (a "sending 'logger'
    # risks causing data races" error only the instrumented build raises), so this build
    # type-checks in Swift 5 mode; the normal build checks Swift 6's rules.
    tsan) export VIGNETTE_TEST_MEMORY_SCALE=4; run tsan --sanitize=thread -Xswiftc -swift-version -Xswiftc 5 ;;
    *) echo "unknown sanitizer run: $name" >&2; exit 2 ;;
  esac
done
exit $status
