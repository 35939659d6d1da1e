#!/usr/bin/env bash
# Sets geodb up on a fresh Debian machine and runs it on SampleData: build, import, inspect, check.
set -euo pipefail
cd "$(dirname "$0")/.."
Tools/install-deps.sh
swift build -c release --product geodb
geodb=.build/release/geodb
mkdir -p demo
$geodb import SampleData/helsinki.osm.pbf --output demo/helsinki.sqlite --force
$geodb import SampleData/helsinki.osm --output demo/helsinki-xml.sqlite --force
$geodb inspect demo/helsinki.sqlite
$geodb inspect demo/helsinki.sqlite --check
