#!/bin/bash
# vignette-healthcheck [HOST:PORT]: exits 0 when `vignette serve` at HOST:PORT (default
# 127.0.0.1:8080) answers GET /health with 200, 1 otherwise. It talks HTTP through bash's
# /dev/tcp, so the runtime image needs no curl or wget; the container's HEALTHCHECK runs it, and
# Scripts/image-check.sh runs it inside the runtime root filesystem.
set -u
address=${1:-127.0.0.1:8080}
host=${address%:*}
port=${address##*:}
exec 3<>"/dev/tcp/$host/$port" || exit 1
printf 'GET /health HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n' "$address" >&3
IFS= read -r -t 5 status <&3 || exit 1
case $status in
  "HTTP/1."?" 200 "*) exit 0 ;;
  *) echo "vignette-healthcheck: $status" >&2; exit 1 ;;
esac
