#!/usr/bin/env bash
# Instructions one query costs, counted by callgrind: exact to the instruction on a machine too noisy to time
# (a shared 2-core VM here swung 2-3x between runs of the same popular set). For comparing two builds.
#   Tools/bench/query-instructions.sh BIN DB TEXT [--autocomplete]   (BIN: a geodb-bench)
# Prints the thousands of instructions per query: the difference of 25 and 5 runs, over 20, so that opening
# the file and the first run's statement preparation drop out. Valgrind cannot read Swift's debug info, so a
# stripped copy of BIN is run.
set -euo pipefail
bin=$1 db=$2 text=$3
shift 3
command -v valgrind >/dev/null || { echo "query-instructions.sh: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
stripped=$(mktemp)
trap 'rm -f "$stripped"' EXIT
strip --strip-debug -o "$stripped" "$bin"
# count N [FLAG…]: the instructions of N runs of the query.
count() {
    local runs=$1
    shift
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$stripped" query "$db" "$text" --queries "$runs" "$@" 2>&1 >/dev/null |
        awk '/refs:/ {gsub(",", "", $4); print $4}'
}
few=$(count 5 "$@")
many=$(count 25 "$@")
echo "$(( (many - few) / 20 / 1000 ))k instructions per query: \"$text\" $* ($(basename "$db"))"
