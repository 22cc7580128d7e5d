#!/usr/bin/env bash
# The whole suite (swift test --skip-build --parallel), watched: if it runs past TEST_TIME_LIMIT
# seconds (default 2400, far above the 2-4 minutes it takes), the stacks of every thread of the
# test processes are printed (gdb, when installed) and the run fails, instead of hanging until CI
# gives up without a word on what was stuck.
set -uo pipefail
cd "$(dirname "$0")/.."
limit=${TEST_TIME_LIMIT:-2400}

"${SWIFT:-swift}" test --skip-build --parallel --enable-all-traits "$@" &
tests=$!
(
    waited=0
    while kill -0 "$tests" 2>/dev/null; do
        sleep 5
        waited=$((waited + 5))
        (( waited < limit )) && continue
        echo "== the tests ran past ${limit}s; the stacks of the test processes:" >&2
        for pid in $(pgrep -f 'VignettePackageTests.xctest'); do
            echo "== process $pid" >&2
            if command -v gdb >/dev/null; then
                gdb -p "$pid" -batch -ex 'thread apply all bt 40' 2>/dev/null | grep -E '^(Thread|#)' >&2
            else
                echo "(gdb is not installed)" >&2
            fi
        done
        pkill -KILL -f 'VignettePackageTests.xctest'
        kill "$tests" 2>/dev/null
        break
    done
) &
watchdog=$!
wait "$tests"
status=$?
wait "$watchdog"
exit "$status"
