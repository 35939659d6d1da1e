#!/usr/bin/env bash
# Builds geodb's libFuzzer targets (Fuzz/, swiftc -sanitize=fuzzer) and runs one for SECONDS:
#   [SANITIZE=address] Tools/fuzz.sh TARGET SECONDS [libFuzzer options…]
# TARGET: pbf, xml, geojson, geonames, csv (input files imported whole, seeded with files of that format),
# query (search texts on a small database), database (geodb database files with bytes changed).
# The corpus and any crashing input go to fuzz-work/TARGET/; a crash reproduces with
#   GEODB_FUZZ_TARGET=… Fuzz/.build/release/geodb-fuzz fuzz-work/TARGET/crashes/crash-…
set -euo pipefail
usage="usage: Tools/fuzz.sh pbf|xml|geojson|geonames|csv|query|database SECONDS [libFuzzer options…]"
target=${1:?$usage}
seconds=${2:?$usage}
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
fixtures="$root/Tests/Fixtures"
work="$root/fuzz-work/$target"
mkdir -p "$work/corpus" "$work/crashes"

seed() { cp "$@" "$work/corpus/" 2>/dev/null || true; }
case "$target" in
    pbf) mode=import; seed "$fixtures/grid.osm.pbf" "$fixtures"/crashers/*.pbf ;;
    xml) mode=import; seed "$fixtures"/*.osm "$fixtures"/*.osm.bz2 "$fixtures"/crashers/*.osm "$fixtures"/crashers/*.osm.gz ;;
    geojson) mode=import; seed "$fixtures/timezones-fixture.geojson" ;;
    geonames) mode=import; seed "$fixtures"/geonames/*.txt ;;
    csv) mode=import; seed "$fixtures"/csv/* ;;
    query)
        mode=query
        i=0
        for text in "Mannerheimintie 12" "60.1699, 24.9384" "60°10'12\"N 24°56'18\"E" "cafe near Kamppi" "Street 12, Town" \
                    "\"quoted\" OR -NOT *" "Töölönlahdenkatu" "12-14" "00100"; do
            printf '%s' "$text" > "$work/corpus/seed-$i"; i=$((i + 1))
        done ;;
    database)
        mode=database
        (cd "$root" && swift build -c release --product geodb >"$work/build.log") || { cat "$work/build.log" >&2; exit 1; }
        [ -e "$work/corpus/grid.sqlite" ] || "$root/.build/release/geodb" import "$fixtures/grid.osm" -o "$work/corpus/grid.sqlite" --quiet ;;
    *) echo "$usage" >&2; exit 64 ;;
esac

cd "$root/Fuzz"
# SANITIZE=address: with AddressSanitizer, which also reports memory an input leaves allocated (a build of
# its own in Fuzz/.build-asan; Fuzz/lsan-suppressions.txt lists Foundation's own leaks).
sanitizers=fuzzer
[ "${SANITIZE:-}" = address ] && sanitizers=fuzzer,address
build=(swift build -c release --product geodb-fuzz -Xswiftc -sanitize=$sanitizers -Xswiftc -parse-as-library)
if [ "${SANITIZE:-}" = address ]; then
    build+=(--build-path .build-asan)
    export LSAN_OPTIONS="suppressions=$root/Fuzz/lsan-suppressions.txt"
    set -- -detect_leaks=1 "$@"
fi
# swift build reports compile errors on stdout: shown when the build fails, not swallowed.
"${build[@]}" >"$work/build.log" || { cat "$work/build.log" >&2; exit 1; }
binary="$("${build[@]}" --show-bin-path)/geodb-fuzz"
# -timeout: an input taking longer is a hang; -rss_limit_mb: one taking more memory is a bug too (a leak
# of a few KB per input shows as this after a long run: 2 GB after 55,000 OSM imports, fixed).
GEODB_FUZZ_TARGET=$mode GEODB_FUZZ_SCRATCH="$work/scratch" "$binary" "$work/corpus" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
    -artifact_prefix="$work/crashes/" "$@"
