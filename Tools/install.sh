#!/usr/bin/env bash
# Builds the release geodb and installs it into PREFIX/bin (default ~/.local/bin), printing where.
# Usage: Tools/install.sh [PREFIX]   (or PREFIX=DIR Tools/install.sh; the argument wins)
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${1:-${PREFIX:-$HOME/.local}}"
Tools/install-deps.sh
# As demo.sh builds it: the Swift runtime and Foundation linked in, so the installed binary keeps working
# when the Swift toolchain is removed or upgraded (it needs only libsqlite3, zlib, libbz2, libdeflate, libxml2).
swift build -c release --static-swift-stdlib --product geodb
mkdir -p "$prefix/bin"
install -m 755 .build/release/geodb "$prefix/bin/geodb"
echo "installed $prefix/bin/geodb (geodb $("$prefix/bin/geodb" --version))"
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "$prefix/bin is not on PATH; add it: export PATH=\"$prefix/bin:\$PATH\"" ;;
esac
