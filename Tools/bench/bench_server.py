#!/usr/bin/env python3
"""`geodb serve` under load: wrk (Debian package) against the server on Helsinki + cities500 (with the
timezone database as a second file), at 1, 16 and 64 connections, per endpoint (search, autocomplete,
reverse, nearby, timezone), for a search/reverse mix and for the popular mix (issue 37: the queries people type
most, half searched and half typed); the search/reverse mix through HAProxy in front of two server
processes (Tools/serve-cluster.sh); the server's resident memory over a 60 s run; the web page's first load
(bytes of the page, Leaflet and the first map, and the time until the map is drawn, in headless Chromium when
there is one). The requests are built by rule from the database itself (names, their prefixes, points near
places), with a fixed seed.

Run by Tools/bench/bench.py (bench.sh) for docs/BENCHMARKS.md; alone: python3 Tools/bench/bench_server.py DB TZDB;
the page's first load alone against a running server: python3 Tools/bench/bench_server.py --page URL; the popular
mix alone: bench.py --only popular.
wrk runs on the same 2 cores as the server: the numbers are what one machine does serving itself."""
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from urllib.parse import quote

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GEODB = os.path.join(ROOT, ".build/release/geodb")
GEODB_BENCH = os.path.join(ROOT, ".build/release/geodb-bench")
PORT = 18300
CONNECTIONS = [1, 16, 64]
POPULAR = "popular mix"
# Issue 37's targets for the popular mix: requests/s at 16 connections, p99 (ms) at 64.
POPULAR_RPS_AT_16 = 5000
POPULAR_P99_MS_AT_64 = 20
LUA = """
local paths = {}
local counter = 0
function init(args)
  for line in io.lines(args[1]) do paths[#paths + 1] = line end
  counter = math.random(#paths)
end
function request()
  counter = counter % #paths + 1
  return wrk.format("GET", paths[counter])
end
"""


def request_paths(db, count=2000, seed=7):
    """Per endpoint, `count` request paths made from the database's places."""
    rng = random.Random(seed)
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    names = [r[0] for r in con.execute(
        "SELECT name FROM place WHERE name IS NOT NULL AND kind IN ('city','town','village','street','poi') "
        "ORDER BY random() LIMIT ?", (count,))]
    points = [(r[0], r[1]) for r in con.execute("SELECT lat, lon FROM place ORDER BY random() LIMIT ?", (count,))]
    con.close()
    rng.shuffle(names)

    def near(point):   # within ~100 m of a place: where people look
        return point[0] + rng.uniform(-0.001, 0.001), point[1] + rng.uniform(-0.001, 0.001)

    paths = {
        "search": [f"/v1/search?q={quote(n)}&limit=10" for n in names],
        "autocomplete": [f"/v1/autocomplete?q={quote(n[:rng.randint(3, max(3, min(8, len(n))))])}&limit=10" for n in names],
        # Nominatim's search, the same names as json and as xml: writing xml must cost about what json does.
        "nominatim json": [f"/search?q={quote(n)}&format=jsonv2&addressdetails=1" for n in names],
        "nominatim xml": [f"/search?q={quote(n)}&format=xml&addressdetails=1" for n in names],
        "reverse": ["/reverse?lat=%.6f&lon=%.6f&format=jsonv2" % near(p) for p in points],
        "nearby": ["/v1/nearby?lat=%.6f&lon=%.6f&radius=1000&category=%s&limit=10" % (*near(p), rng.choice(["restaurant", "cafe", "pharmacy", "shop"]))
                   for p in points],
        "timezone": ["/v1/timezone?lat=%.4f&lon=%.4f" % near(p) for p in points],
    }
    paths["search + reverse"] = [p for pair in zip(paths["search"], paths["reverse"]) for p in pair]
    paths[POPULAR] = popular_paths(db)
    return paths


def popular_paths(db):
    """The popular mix: the queries `geodb-bench popular --list` makes from the database, the whole texts (towns,
    streets, streets with a number, name words, categories) as Nominatim's /search and the first letters typed as Photon's as-you-type
    /api, in turn, the shorter list cycled so that each is half of the requests. Both ask for 10 results, as the
    in-process sets do. Not the typos set: issue 37 defines the mix without it, and runs are compared across sessions."""
    sets = json.loads(subprocess.run([GEODB_BENCH, "popular", db, "--list"], check=True, capture_output=True, text=True).stdout)
    queries = [q for name in sorted(sets) if name != "typos" for q in sets[name]]
    search = [f"/search?q={quote(q['text'], safe='')}&format=jsonv2&limit=10" for q in queries if not q["typing"]]
    typing = [f"/api?q={quote(q['text'], safe='')}&limit=10" for q in queries if q["typing"]]
    if not search or not typing:
        return search + typing
    return [p for i in range(max(len(search), len(typing))) for p in (search[i % len(search)], typing[i % len(typing)])]


def start_server(dbs, port):
    process = subprocess.Popen([GEODB, "serve", *dbs, "--port", str(port), "--quiet"], stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    if "listening" not in line:
        raise SystemExit(f"geodb serve did not start: {line}")
    return process


def wrk(port, paths_file, connections, seconds):
    """wrk's requests/s, latency percentiles (ms) and non-2xx count."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(LUA)
    threads = min(2, connections)
    out = subprocess.run(["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{seconds}s", "--latency", "-s", script.name,
                          f"http://127.0.0.1:{port}", "--", paths_file], capture_output=True, text=True).stdout
    os.unlink(script.name)

    def ms(text):
        value, unit = re.match(r"([\d.]+)(us|ms|s)", text).groups()
        return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
    percentiles = {int(p): ms(v) for p, v in re.findall(r"^\s+(50|75|90|99)%\s+(\S+)", out, re.M)}
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    socket_errors = re.search(r"Socket errors: (.*)", out)
    return {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)), "p50_ms": percentiles.get(50),
            "p99_ms": percentiles.get(99), "non_2xx": int(errors.group(1)) if errors else 0,
            "socket_errors": socket_errors.group(1) if socket_errors else None}


def rss_kib(pid):
    """Resident KiB: all (with the database's mapped pages) and anonymous (the heap)."""
    with open(f"/proc/{pid}/status") as status:
        text = status.read()
    return int(re.search(r"VmRSS:\s+(\d+)", text).group(1)), int(re.search(r"RssAnon:\s+(\d+)", text).group(1))


def write_paths(work, paths):
    """One file of request paths per endpoint (what the wrk script reads), by endpoint."""
    files = {}
    for endpoint, endpoint_paths in paths.items():
        files[endpoint] = os.path.join(work, endpoint.replace(" + ", "-").replace(" ", "-") + ".txt")
        with open(files[endpoint], "w") as f:
            f.write("\n".join(endpoint_paths) + "\n")
    return files


def measure_endpoints(port, files, seconds):
    """wrk per endpoint at each of CONNECTIONS, after a warm-up, by endpoint and connection count."""
    results = {}
    for endpoint, path in files.items():
        wrk(port, path, 4, 1)   # warm the caches and the sessions
        results[endpoint] = {c: wrk(port, path, c, seconds) for c in CONNECTIONS}
        print(f"server {endpoint}: " + ", ".join(f"{c} conn {r['rps']:.0f}/s p50 {r['p50_ms']:.2f} p99 {r['p99_ms']:.2f} ms"
                                                 for c, r in results[endpoint].items()), file=sys.stderr)
    return results


def bench_popular_mix(db, tz_db, quick=False):
    """Only the popular mix, on a server of its own (bench.py --only popular): by connection count."""
    files = write_paths(tempfile.mkdtemp(), {POPULAR: popular_paths(db)})
    server = start_server([db, tz_db] if tz_db else [db], PORT)
    try:
        return measure_endpoints(PORT, files, 3 if quick else 10)[POPULAR]
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait()


def bench_server(db, tz_db, quick=False):
    seconds = 3 if quick else 10
    work = tempfile.mkdtemp()
    files = write_paths(work, request_paths(db))
    dbs = [db, tz_db] if tz_db else [db]
    port = PORT
    server = start_server(dbs, port)
    results = {"connections": CONNECTIONS, "endpoints": {}, "cluster": {}, "rss": None}
    try:
        results["page"] = page_first_load(f"http://127.0.0.1:{port}")   # first: on a server not yet busy
        print(f"server page first load: {results['page']}", file=sys.stderr)
        results["endpoints"] = measure_endpoints(port, files, seconds)
        # Resident memory over a long run of the mix at 64 connections, sampled every second.
        duration = 10 if quick else 60
        samples = []
        load = subprocess.Popen(["wrk", "-t", "2", "-c", "64", "-d", f"{duration}s", "-s", write_lua(work), f"http://127.0.0.1:{port}",
                                 "--", files["search + reverse"]], stdout=subprocess.DEVNULL)
        start = time.time()
        while load.poll() is None:
            samples.append((time.time() - start, rss_kib(server.pid)))
            time.sleep(1)
        sixth = max(1, len(samples) // 6)

        def mib(part, which):
            return sum(s[which] for _, s in part) / len(part) / 1024
        results["rss"] = {"seconds": duration, "first_mib": mib(samples[:sixth], 0), "last_mib": mib(samples[-sixth:], 0),
                          "first_anon_mib": mib(samples[:sixth], 1), "last_anon_mib": mib(samples[-sixth:], 1),
                          "max_anon_mib": max(s[1] for _, s in samples) / 1024}
        print(f"server rss over {duration} s: {results['rss']}", file=sys.stderr)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait()
    # Two server processes behind HAProxy.
    cluster = subprocess.Popen([os.path.join(ROOT, "Tools/serve-cluster.sh"), "2", str(port), *dbs], stdout=subprocess.PIPE,
                               text=True, start_new_session=True, env={**os.environ, "GEODB": GEODB})
    try:
        cluster.stdout.readline()
        time.sleep(1)   # HAProxy's first health checks
        wrk(port, files["search + reverse"], 4, 1)
        results["cluster"] = {c: wrk(port, files["search + reverse"], c, seconds) for c in [16, 64]}
        print(f"server cluster: {results['cluster']}", file=sys.stderr)
    finally:
        os.killpg(cluster.pid, signal.SIGTERM)
        cluster.wait()
    return results


# The files of the page's first load, by path; /v1/map is the first of its kind.
PAGE_FILES = ["/", "/leaflet/leaflet.js", "/leaflet/leaflet.css", "/v1/page-config", "/v1/map"]
SYSTEM_PYTHON = "/usr/bin/python3"   # Debian's, with python3-selenium


def page_first_load(url, runs=3):
    """The page's first load in a fresh headless Chromium, `runs` times: bytes over the wire (gzip, with
    headers) and decoded of each file of PAGE_FILES, and ms from navigation to the first map drawn (the page's
    performance mark) and to the load event; the median run. None when Chromium or Selenium is missing."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        if sys.executable != SYSTEM_PYTHON and os.path.exists(SYSTEM_PYTHON):   # bench.py runs under another Python
            out = subprocess.run([SYSTEM_PYTHON, os.path.abspath(__file__), "--page", url], capture_output=True, text=True)
            return json.loads(out.stdout) if out.returncode == 0 and out.stdout.strip() else None
        return None
    if not (os.path.exists("/usr/bin/chromium") and os.path.exists("/usr/bin/chromedriver")):
        return None
    measured = []
    for _ in range(runs):
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,800"):
            options.add_argument(flag)
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        try:
            driver.get(url.rstrip("/") + "/")
            deadline = time.time() + 30
            while time.time() < deadline and not driver.execute_script(
                    "return performance.getEntriesByName('geodb:map-drawn').length"):
                time.sleep(0.05)
            timing = driver.execute_script("""
                const files = {}, resources = [performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')];
                for (const e of resources) {
                    const path = new URL(e.name).pathname;
                    if (!(path in files)) files[path] = {wire: e.transferSize, decoded: e.decodedBodySize};
                }
                const drawn = performance.getEntriesByName('geodb:map-drawn')[0];
                return {files, map_drawn_ms: drawn ? drawn.startTime : null,
                        load_ms: performance.getEntriesByType('navigation')[0].loadEventEnd};""")
        finally:
            driver.quit()
        measured.append({"files": {path: timing["files"].get(path) for path in PAGE_FILES}, "map_drawn_ms": timing["map_drawn_ms"],
                         "load_ms": timing["load_ms"]})
    measured.sort(key=lambda m: m["map_drawn_ms"] if m["map_drawn_ms"] is not None else float("inf"))
    median = measured[len(measured) // 2]
    known = [f for f in median["files"].values() if f]
    median["total_wire_bytes"] = sum(f["wire"] for f in known)
    median["total_decoded_bytes"] = sum(f["decoded"] for f in known)
    return median


def page_line(page):
    """Markdown: the page's first load in one sentence."""
    if not page:
        return "The page's first load was not measured (no Chromium or Selenium)."
    files = ", ".join(f"{path} {f['wire'] / 1024:.1f} KiB ({f['decoded'] / 1024:.1f} KiB decoded)"
                      for path, f in page["files"].items() if f)
    drawn = f"{page['map_drawn_ms']:.0f} ms" if page["map_drawn_ms"] is not None else "never (no map drawn in 30 s)"
    return (f"The page's first load in headless Chromium on loopback (median of 3 fresh browsers): {files}; "
            f"{page['total_wire_bytes'] / 1024:.1f} KiB over the wire in all; the first map drawn {drawn} after navigation "
            f"starts, the load event at {page['load_ms']:.0f} ms.")


def write_lua(work):
    path = os.path.join(work, "paths.lua")
    with open(path, "w") as f:
        f.write(LUA)
    return path


def popular_mix_lines(by_conn):
    """Markdown: the popular mix's requests/s and latencies per connection count, with issue 37's targets judged."""
    lines = ["| connections | requests/s | p50 ms | p99 ms | non-2xx |", "|---:|---:|---:|---:|---:|"]
    lines += [f"| {c} | {r['rps']:,.0f} | {r['p50_ms']:.2f} | {r['p99_ms']:.2f} | {r['non_2xx']} |" for c, r in by_conn.items()]
    rps, p99 = by_conn[16]["rps"], by_conn[64]["p99_ms"]
    lines += ["", f"Targets: ≥ {POPULAR_RPS_AT_16:,} requests/s at 16 connections: {rps:,.0f}, "
              f"**{'pass' if rps >= POPULAR_RPS_AT_16 else 'fail'}**; p99 ≤ {POPULAR_P99_MS_AT_64} ms at 64 connections: "
              f"{p99:.2f} ms, **{'pass' if p99 <= POPULAR_P99_MS_AT_64 else 'fail'}**."]
    return lines


def server_table(results):
    """Markdown: requests/s and p50 / p99 per endpoint and connection count."""
    conns = results["connections"]
    lines = ["| endpoint | " + " | ".join(f"{c} conn: req/s, p50 / p99 ms" for c in conns) + " |",
             "|---|" + "---|" * len(conns)]
    for endpoint, by_conn in results["endpoints"].items():
        cells = []
        for c in conns:
            r = by_conn[c]
            bad = f" ({r['non_2xx']} non-2xx)" if r["non_2xx"] else ""
            cells.append(f"{r['rps']:,.0f}, {r['p50_ms']:.2f} / {r['p99_ms']:.2f}{bad}")
        lines.append(f"| {endpoint} | " + " | ".join(cells) + " |")
    for c, r in results["cluster"].items():
        lines.append(f"| search + reverse, HAProxy + 2 servers, {c} conn | {r['rps']:,.0f}, {r['p50_ms']:.2f} / {r['p99_ms']:.2f} | | |")
    return "\n".join(lines) + "\n\n" + page_line(results.get("page"))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--page":
        print(json.dumps(page_first_load(sys.argv[2])))
        sys.exit(0)
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    outcome = bench_server(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None, quick="--quick" in sys.argv)
    print(server_table(outcome))
    print(json.dumps(outcome["rss"]))
