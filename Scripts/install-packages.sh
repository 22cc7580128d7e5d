#!/usr/bin/env bash
# Installs the named Debian packages that are not installed yet (apt-get, as root or via sudo).
# A name ending in `?` is installed only where the release has it: libheif's codec plugins are
# packages of their own on Debian 13 (recommended by libheif1, which --no-install-recommends
# skips) and do not exist on Debian 12, whose libheif has the codecs built in.
set -euo pipefail
missing=()
optional=()
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
known() { apt-cache show --no-all-versions "$1" >/dev/null 2>&1; }
for package in "$@"; do
  case "$package" in
    *\?) installed "${package%\?}" || optional+=("${package%\?}") ;;
    *) installed "$package" || missing+=("$package") ;;
  esac
done
# An optional package apt does not know is left out, unless a required one makes apt update anyway.
if [ ${#missing[@]} -eq 0 ]; then
  for package in ${optional[@]+"${optional[@]}"}; do known "$package" && missing+=("$package"); done
  [ ${#missing[@]} -eq 0 ] && exit 0
  optional=()
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
for package in ${optional[@]+"${optional[@]}"}; do known "$package" && missing+=("$package"); done
echo "installing: ${missing[*]}"
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
