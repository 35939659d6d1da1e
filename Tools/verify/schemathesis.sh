#!/usr/bin/env bash
# Property-based tests of `geodb serve`'s /v1 API from its own OpenAPI document (schemathesis, from PyPI,
# in .build/schemathesis-venv): requests generated from /openapi.json, answers checked for server errors
# and against the document's statuses, content types and schemas. Not part of `swift test` (minutes).
#
#   Tools/verify/schemathesis.sh [SECONDS] [DATABASE…]      # default 120 s on demo/combined.sqlite + demo/liechtenstein.sqlite
#
# The checks that a request the schema allows is accepted and one it forbids is refused are left out: the
# document cannot say that lat and lon go together, that structured search needs one of its fields, or
# that an empty parameter counts as absent (docs/SERVER.md, "Every error is JSON").
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-120}; shift || true
databases=("$@")
[ ${#databases[@]} -gt 0 ] || databases=(demo/combined.sqlite demo/liechtenstein.sqlite)
geodb=${GEODB:-.build/release/geodb}
[ -x "$geodb" ] || { echo "error: $geodb is not built (Tools/demo.sh builds it and the demo databases)" >&2; exit 1; }
venv=.build/schemathesis-venv
[ -x "$venv/bin/schemathesis" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install --quiet schemathesis==4.32.5; }
out=$(mktemp)
"$geodb" serve "${databases[@]}" --port 0 --quiet > "$out" &
server=$!
trap 'kill $server 2>/dev/null || true; rm -f "$out"' EXIT
for _ in $(seq 1 100); do grep -q listening "$out" && break; sleep 0.1; done
url=$(grep -o 'http://[^/]*' "$out")
"$venv/bin/schemathesis" run "$url/openapi.json" --url "$url" --max-time "$seconds" --workers 2 \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance,unsupported_method
