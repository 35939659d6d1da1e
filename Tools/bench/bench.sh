#!/usr/bin/env bash
# The benchmark: builds release (statically linked, as Tools/demo.sh does), prepares data, runs geodb
# and its peers side by side, and writes docs/BENCHMARKS.md.
# `--quick` for a short check run; `--only popular|large|countries` reruns one section. Issue 34's import target
# (Liechtenstein and its ×20 tile at most 15 % slower than 8c32aa6, the build before completed addresses) needs that
# build beside: `git worktree add --detach ../base 8c32aa6 && (cd ../base && swift build -c release
# --static-swift-stdlib --product geodb)`, then `GEODB_BENCH_BASELINE=../base/.build/release/geodb Tools/bench/bench.sh`.
set -euo pipefail
cd "$(dirname "$0")/../.."
Tools/install-deps.sh time osmium-tool gdal-bin python3 wrk haproxy || echo "note: could not install every peer; missing ones are skipped" >&2
swift build -c release --static-swift-stdlib --product geodb 2>&1 | tail -1
swift build -c release --static-swift-stdlib --product geodb-bench 2>&1 | tail -1
exec python3 Tools/bench/bench.py "$@"
