#!/usr/bin/env python3
"""Region files as shards, measured (docs/SHARDS.md): imports each OSM extract given into a file of its own,
one after the other (as one machine of a scheduler would), then serves all of them as one with `geodb serve`
and drives it with wrk on a mix of search and reverse (bench_server.py's requests, drawn from every region),
printing per region the import time, the file's size, places and bytes per place, and for the server
requests/s and resident memory. The numbers docs/SHARDS.md extrapolates to the planet.

    python3 Tools/bench/bench_shards.py EXTRACT [EXTRACT ...] [--work DIR] [--seconds S] [--json-out FILE]

Uses .build/release/geodb. Make larger regions with `geodb-bench tile IN --factor N --output OUT.osm.pbf`.
"""
import argparse
import json
import os
import re
import sqlite3
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_server  # noqa: E402  (its request paths, server start, wrk and RSS readers)

PORT = 18350
CONNECTIONS = [1, 16, 64]


def osm_counts(extract):
    """Nodes, ways and relations of an extract (osmium fileinfo)."""
    info = json.loads(subprocess.run(["osmium", "fileinfo", "--extended", "--json", extract],
                                     check=True, capture_output=True, text=True).stdout)["data"]["count"]
    return info["nodes"], info["ways"], info["relations"]


def import_region(extract, work):
    name = os.path.basename(extract).split(".")[0]
    output = os.path.join(work, f"{name}.sqlite")
    started = time.monotonic()
    done = subprocess.run(["/usr/bin/time", "-f", "maxrss_kib=%M", bench_server.GEODB, "import", extract, "--output", output],
                          check=True, capture_output=True, text=True)
    seconds = time.monotonic() - started
    with sqlite3.connect(f"file:{output}?mode=ro", uri=True) as con:
        places = con.execute("SELECT count(*) FROM place").fetchone()[0]
    nodes, ways, relations = osm_counts(extract)
    return {"region": name, "db": output, "pbf_bytes": os.path.getsize(extract), "nodes": nodes, "ways": ways,
            "relations": relations, "import_s": seconds, "import_rss_kib": int(re.search(r"maxrss_kib=(\d+)", done.stderr).group(1)),
            "db_bytes": os.path.getsize(output), "places": places}


def serve_and_measure(dbs, work, seconds):
    paths = []
    for db in dbs:   # each region's search + reverse requests, the regions in turn
        paths.append(bench_server.request_paths(db, count=1000)["search + reverse"])
    mixed = [p for group in zip(*paths) for p in group]
    paths_file = os.path.join(work, "shards-search-reverse.txt")
    with open(paths_file, "w") as f:
        f.write("\n".join(mixed) + "\n")
    server = bench_server.start_server(dbs, PORT)
    try:
        idle_kib = bench_server.rss_kib(server.pid)
        bench_server.wrk(PORT, paths_file, 4, 2)   # warm the caches and the sessions
        load = {c: bench_server.wrk(PORT, paths_file, c, seconds) for c in CONNECTIONS}
        loaded_kib = bench_server.rss_kib(server.pid)
    finally:
        server.terminate()
        server.wait()
    return {"idle_rss_kib": idle_kib, "loaded_rss_kib": loaded_kib, "wrk": load}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("extracts", metavar="EXTRACT", nargs="+")
    parser.add_argument("--work", default="shards-bench")
    parser.add_argument("--seconds", type=int, default=10, help="wrk's duration per connection count")
    parser.add_argument("--json-out", metavar="FILE")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)

    regions = [import_region(extract, args.work) for extract in args.extracts]
    print(f"{'region':<28}{'PBF MB':>8}{'nodes':>12}{'import s':>10}{'RSS MB':>8}{'file MB':>9}{'places':>10}{'B/place':>9}{'places/node':>13}")
    for r in regions:
        print(f"{r['region']:<28}{r['pbf_bytes'] / 1e6:>8.1f}{r['nodes']:>12,}{r['import_s']:>10.2f}{r['import_rss_kib'] / 1024:>8.0f}"
              f"{r['db_bytes'] / 1e6:>9.1f}{r['places']:>10,}{r['db_bytes'] / r['places']:>9.0f}{r['places'] / r['nodes']:>13.4f}")
    served = serve_and_measure([r["db"] for r in regions], args.work, args.seconds)
    print(f"\ngeodb serve over the {len(regions)} files: RSS idle {served['idle_rss_kib'][0] / 1024:.0f} MB, "
          f"after the load {served['loaded_rss_kib'][0] / 1024:.0f} MB (heap {served['loaded_rss_kib'][1] / 1024:.0f} MB)")
    for connections, result in served["wrk"].items():
        print(f"  search + reverse, {connections:>2} connections: {result['rps']:>8.0f} requests/s, p50 {result['p50_ms']} ms, "
              f"p99 {result['p99_ms']} ms, non-2xx {result['non_2xx']}")
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump({"regions": regions, "served": served, "cores": os.cpu_count()}, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
