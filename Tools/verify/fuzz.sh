#!/usr/bin/env bash
# Builds geodb's libFuzzer targets (Fuzz/, swiftc -sanitize=fuzzer) and runs one for SECONDS:
#   [SANITIZE=address] Tools/verify/fuzz.sh TARGET SECONDS [libFuzzer options…]
# TARGET: pbf, xml, geojson, geonames, csv (input files imported whole, seeded with files of that format),
# query (search texts on a small database), database (geodb database files with bytes changed).
# The corpus and any crashing input go to fuzz-work/TARGET/; a crash reproduces with
#   GEODB_FUZZ_TARGET=… Fuzz/.build/release/geodb-fuzz fuzz-work/TARGET/crashes/crash-…
# Slow inputs are findings too: one that takes more than SLOW_SECONDS (default 2) is kept as
# fuzz-work/TARGET/crashes/slow-unit-… and the run then exits 1 listing them (quadratic work on a few KB
# is how the 2026-11-25 hangs looked); one over 20 s stops the run as a timeout.
set -euo pipefail
usage="usage: Tools/verify/fuzz.sh pbf|xml|geojson|geonames|csv|query|database SECONDS [libFuzzer options…]"
target=${1:?$usage}
seconds=${2:?$usage}
shift 2
root=$(cd "$(dirname "$0")/../.." && pwd)
fixtures="$root/Tests/Fixtures"
work="$root/fuzz-work/$target"
mkdir -p "$work/corpus" "$work/crashes"

seed() { cp "$@" "$work/corpus/" 2>/dev/null || true; }
# A seed made here: name and text (shapes of input that once took quadratic time, kept small).
made() { printf '%s' "$2" > "$work/corpus/$1"; }
repeat() { local out="" i; for ((i = 0; i < $2; i++)); do out+="$1"; done; printf '%s' "$out"; }
dict=()
case "$target" in
    pbf) mode=import; seed "$fixtures/grid.osm.pbf" "$fixtures"/crashers/*.pbf ;;
    xml)
        mode=import; dict=(-dict="$root/Fuzz/dictionaries/xml.dict")
        seed "$fixtures"/*.osm "$fixtures"/*.osm.bz2 "$fixtures"/crashers/*.osm "$fixtures"/crashers/*.osm.gz
        # A boundary whose member ways never join into a ring, and an element with many attributes.
        made disjoint-members.osm "<osm version=\"0.6\">$(for i in 1 2 3 4 5 6; do
            printf '<node id="%d1" lat="%d.0" lon="1.0"/><node id="%d2" lat="%d.5" lon="1.5"/><way id="%d"><nd ref="%d1"/><nd ref="%d2"/></way>' $i $i $i $i $i $i $i
        done)<relation id=\"1\">$(for i in 1 2 3 4 5 6; do printf '<member type="way" ref="%d" role="outer"/>' $i; done)<tag k=\"type\" v=\"boundary\"/><tag k=\"boundary\" v=\"administrative\"/><tag k=\"name\" v=\"B\"/></relation></osm>"
        made many-attributes.osm "<osm version=\"0.6\"><node id=\"1\" lat=\"1\" lon=\"1\" $(repeat 'a="1" ' 99)/></osm>" ;;
    geojson)
        mode=import; dict=(-dict="$root/Fuzz/dictionaries/geojson.dict"); seed "$fixtures/timezones-fixture.geojson"
        # A zone with many holes.
        made holes.geojson "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"properties\":{\"tzid\":\"Test/Holes\"},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[10,0],[10,10],[0,10],[0,0]]$(for i in 1 2 3 4 5 6 7 8; do printf ',[[%d.1,1],[%d.2,1],[%d.2,2],[%d.1,1]]' $i $i $i $i; done)]}}]}" ;;
    geonames) mode=import; dict=(-dict="$root/Fuzz/dictionaries/csv.dict"); seed "$fixtures"/geonames/*.txt ;;
    csv)
        mode=import; dict=(-dict="$root/Fuzz/dictionaries/csv.dict"); seed "$fixtures"/csv/*
        # Values near the length limit (255 characters), and control characters.
        made wide.csv "name,lat,lon,category
$(repeat x 255),60.1,24.9,cafe
$(repeat y 256),60.2,24.9,$(repeat z 300)
$(printf '\001\002\033[2J%.0s' 1 2 3 4 5),60.3,24.9,shop" ;;
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
# -report_slow_units: an input taking longer is written as slow-unit-…, listed below.
slow=${SLOW_SECONDS:-2}
status=0
GEODB_FUZZ_TARGET=$mode GEODB_FUZZ_SCRATCH="$work/scratch" "$binary" "$work/corpus" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
    -report_slow_units="$slow" -artifact_prefix="$work/crashes/" ${dict[@]+"${dict[@]}"} "$@" || status=$?
shopt -s nullglob
slow_units=("$work"/crashes/slow-unit-*)
if [ ${#slow_units[@]} -gt 0 ]; then
    echo "${#slow_units[@]} input(s) took more than $slow s each (findings; rerun one to time it):" >&2
    printf '  %s\n' "${slow_units[@]}" >&2
    [ "$status" -ne 0 ] || status=1
fi
exit "$status"
