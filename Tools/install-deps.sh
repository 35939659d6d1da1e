#!/usr/bin/env bash
# Installs the Debian packages geodb builds against, when missing (needs root or sudo).
# Usage: Tools/install-deps.sh [extra-package ...]
set -euo pipefail
packages=(libsqlite3-dev zlib1g-dev libbz2-dev libdeflate-dev pkg-config gzip "$@")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
