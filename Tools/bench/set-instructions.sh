#!/usr/bin/env bash
# Instructions per query of whole popular sets, counted by callgrind (query-instructions.sh for each query of
# `geodb-bench popular DB --list`): for comparing two builds set by set on a machine too noisy to time.
#   Tools/bench/set-instructions.sh BIN DB SET [SET…] > OUT.tsv   (BIN: a geodb-bench; SET: towns, streets,
#   addresses, words, categories, as_you_type, typos)
# Prints one line per query: set, text, T when typed (autocomplete) else F, thousands of instructions. Two
# builds' outputs side by side: `paste OLD.tsv NEW.tsv`. About 5-10 s a query under valgrind.
set -euo pipefail
bin=$1 db=$2
shift 2
here=$(dirname "$0")
queries=$(mktemp)
trap 'rm -f "$queries"' EXIT
"$bin" popular "$db" --list > "$queries"
for set in "$@"; do
    python3 -c '
import json, sys
for q in json.load(open(sys.argv[1])).get(sys.argv[2], []):
    print(("T" if q["typing"] else "F") + "\t" + q["text"])
' "$queries" "$set" | while IFS=$'\t' read -r typing text; do
        flag=()
        [ "$typing" = T ] && flag=(--autocomplete)
        count=$(bash "$here/query-instructions.sh" "$bin" "$db" "$text" "${flag[@]}" | awk '{print $1}')
        printf '%s\t%s\t%s\t%s\n' "$set" "$text" "$typing" "${count%k}"
    done
done
