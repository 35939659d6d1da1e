#!/usr/bin/env bash
# N `geodb serve` processes behind HAProxy on one port: how geodb scales past one process (it is stateless
# and read-only, so more processes, or more machines in the backend list, serve more). Runs in the
# foreground; Ctrl-C or SIGTERM stops HAProxy, then the servers, each finishing its requests in flight.
#
#   Tools/serve-cluster.sh 2 8080 world.sqlite [more.sqlite …]     # servers on 8081, 8082; HAProxy on 8080
#
# Needs haproxy (Debian package: Tools/install-deps.sh haproxy) and a built geodb (GEODB, default the
# release build).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 3 ]; then echo "usage: $0 SERVERS PORT DATABASE..." >&2; exit 64; fi
servers=$1 port=$2; shift 2
geodb=${GEODB:-.build/release/geodb}
command -v haproxy >/dev/null || { echo "error: haproxy is not installed (Tools/install-deps.sh haproxy)" >&2; exit 1; }
[ -x "$geodb" ] || { echo "error: $geodb is not built (swift build -c release --product geodb)" >&2; exit 1; }
work=$(mktemp -d)
pids=()
stop() {
  trap - INT TERM EXIT
  [ -n "${haproxy_pid:-}" ] && kill "$haproxy_pid" 2>/dev/null || true
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap stop INT TERM EXIT
backends=""
for i in $(seq 1 "$servers"); do
  "$geodb" serve "$@" --port $((port + i)) --quiet > "$work/server-$i.out" &
  pids+=($!)
  backends+="    server geodb$i 127.0.0.1:$((port + i)) check"$'\n'
done
for i in $(seq 1 "$servers"); do   # each prints its address once it listens
  for _ in $(seq 1 200); do grep -q listening "$work/server-$i.out" && break; sleep 0.05; done
  grep -q listening "$work/server-$i.out" || { echo "error: server $i did not start" >&2; exit 1; }
done
cat > "$work/haproxy.cfg" <<CFG
global
    maxconn 4096
defaults
    mode http
    timeout connect 5s
    timeout client 60s
    timeout server 60s
    option http-keep-alive
frontend geodb
    bind 127.0.0.1:$port
    default_backend geodb
backend geodb
    balance leastconn
    option httpchk GET /status
    http-check expect status 200
$backends
CFG
echo "serve-cluster: HAProxy on http://127.0.0.1:$port/ in front of $servers geodb serve processes (ports $((port + 1))–$((port + servers)))"
haproxy -f "$work/haproxy.cfg" -db &
haproxy_pid=$!
wait "$haproxy_pid"
