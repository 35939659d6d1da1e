#!/usr/bin/env bash
# The benchmark: builds release (statically linked, as Tools/demo.sh does), prepares data, runs geodb
# and its peers side by side, and writes docs/BENCHMARKS.md.
# `--quick` for a short check run.
set -euo pipefail
cd "$(dirname "$0")/../.."
Tools/install-deps.sh time osmium-tool gdal-bin python3 wrk haproxy || echo "note: could not install every peer; missing ones are skipped" >&2
swift build -c release --static-swift-stdlib --product geodb 2>&1 | tail -1
swift build -c release --static-swift-stdlib --product geodb-bench 2>&1 | tail -1
exec python3 Tools/bench/bench.py "$@"
