#!/usr/bin/env bash
# Runs a command and says how long it took: `Scripts/timed.sh NAME COMMAND...` prints
# "== NAME: N s" to stderr when it ends, and exits with the command's status (make test's steps).
name=$1
shift
start=$(date +%s)
"$@"
status=$?
echo "== $name: $(( $(date +%s) - start )) s" >&2
exit $status
