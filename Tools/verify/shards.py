#!/usr/bin/env python3
"""Proves that region files served as one answer as the whole would: cuts an OSM extract into N strips
with `osmium extract` (as Geofabrik cuts its extracts: objects crossing a cut are whole in both strips),
imports each strip and the whole with `geodb import`, and asks the same few hundred queries of each kind
of the whole file and of the strips together (`geodb search whole.sqlite …` against `geodb search
part1.sqlite part2.sqlite …`).

    python3 Tools/verify/shards.py GEODB EXTRACT [--parts N] [--axis lat|lon] [--per-kind N] [--seed S]
                                   [--work DIR] [--jobs J] [--show K] [--tolerance F]

The queries are compare-answers.py's (drawn from the whole file by seed: names, typos, autocomplete,
addresses, towns and streets for hierarchical search, points for reverse and nearby, source ids for
lookup), run with --json; not lookups by place id (a file's own).
Two answers are identical when they have the same exit status and list the same places (source id,
name, kind, address line, position to 1e-5°) in the same order. A difference is put down to the first
of these that holds:

  twice         the strips' answer lists one place twice (a border place not recognised as one)
  order         the same places in another order (equal scores, whose order no rule fixes across files)
  id            the same places (name, kind, address line, position) in the same order, one under another
                source id: a street is named by its smallest way, which differs between a strip and the whole
  details       the same places in the same order, but another name, address or position of one
                (a street cut at the border has the part in the strip as its geometry)
  pieces        the strips answer a place of the same name and kind the whole does not list (a place
                the whole merged from parts that lie in different strips, or one only the whole could build)
  places        other places
  status        another exit status

Prints a table per query kind and the first K differences of each kind. Exit status: 0 when the share of queries
that differ in each kind is at most --tolerance (default 0.05: a few answers near the cuts are
inherently other, see docs/SHARDS.md; Liechtenstein and Monaco cut in two differ in at most 3.5 % of a
kind's queries) and no answer lists a place twice, 1 otherwise.
"""
import argparse
import concurrent.futures
import importlib.util
import json
import os
import random
import shlex
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("compare_answers", os.path.join(HERE, "compare-answers.py"))
compare_answers = importlib.util.module_from_spec(spec)
spec.loader.exec_module(compare_answers)

# The kinds of compare-answers.py whose answers depend on which files hold the data (timezones, the
# category list and malformed input do not).
KINDS = ["search", "autocomplete", "typo", "address", "hierarchical", "reverse", "nearby", "lookup"]
# Geofabrik's cut: ways crossing a cut whole, and multipolygons and boundaries whole, in every strip
# that they reach (the towns' boundaries stay areas in both halves).
OSMIUM_STRATEGY = ["--strategy", "smart", "-S", "types=multipolygon,boundary"]
REASONS = ["twice", "order", "id", "details", "pieces", "places", "status"]


def run(command):
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)


def extract_bbox(path):
    """The extract's own box from its header (Geofabrik's region), else the box of its data: what the
    cuts divide evenly."""
    info = json.loads(subprocess.run(["osmium", "fileinfo", "--extended", "--json", path],
                                     check=True, capture_output=True, text=True).stdout)
    boxes = info.get("header", {}).get("boxes") or [info["data"]["bbox"]]
    return boxes[0]                             # [min lon, min lat, max lon, max lat]


def strips(bbox, parts, axis):
    """N boxes that cut the world at N - 1 evenly spaced lines through `bbox`: the first and last reach
    to the edge of the world, so every object of the extract is in at least one strip."""
    low, high = (bbox[1], bbox[3]) if axis == "lat" else (bbox[0], bbox[2])
    limit = 90.0 if axis == "lat" else 180.0
    edges = [-limit] + [low + (high - low) * i / parts for i in range(1, parts)] + [limit]
    boxes = []
    for start, end in zip(edges, edges[1:]):
        boxes.append((-180.0, start, 180.0, end) if axis == "lat" else (start, -90.0, end, 90.0))
    return boxes, edges[1:-1]


def cut_and_import(geodb, extract, parts, axis, work):
    """Imports the whole and each strip; returns the whole's database, the strips' databases, the cut
    lines and each import's seconds."""
    name = os.path.basename(extract).split(".")[0]
    boxes, cuts = strips(extract_bbox(extract), parts, axis)
    seconds = {}

    def geodb_import(source, output):
        started = time.monotonic()
        run([geodb, "import", source, "--output", output])
        seconds[os.path.basename(output)] = time.monotonic() - started
        return output

    whole = geodb_import(extract, os.path.join(work, f"{name}-whole.sqlite"))
    shards = []
    for i, box in enumerate(boxes, 1):
        piece = os.path.join(work, f"{name}-part{i}.osm.pbf")
        run(["osmium", "extract", *OSMIUM_STRATEGY, "--bbox", ",".join(f"{v:.7f}" for v in box),
             "--overwrite", "--output", piece, extract])
        shards.append(geodb_import(piece, os.path.join(work, f"{name}-part{i}.sqlite")))
    return whole, shards, cuts, seconds


# ---------------------------------------------------------------------------------------------------
# Answers as lists of places


def places_of(completed):
    """The places an answer lists, each as what a reader sees of it; None when it is not JSON."""
    try:
        value = json.loads(completed.stdout)
    except ValueError:
        return None

    def collect(value):
        if isinstance(value, dict):
            if "source_id" in value and "kind" in value:
                return [(value.get("source_id"), value.get("name"), value.get("kind"), value.get("display_name"),
                         round(value.get("lat", 0), 5), round(value.get("lon", 0), 5))]
            return [p for key in ("place", "results") if key in value for p in collect(value[key])]
        if isinstance(value, list):
            return [p for item in value for p in collect(item)]
        return []
    return collect(value)


def why_different(whole, shards):
    """The first reason of REASONS that explains the two answers' difference; None when they are the same."""
    if whole.returncode != shards.returncode:
        return "status"
    w, s = places_of(whole), places_of(shards)
    if w is None or s is None:
        return None if whole.stdout == shards.stdout else "places"
    if w == s:
        return None
    ids = [p[0] for p in s if p[0] is not None]
    if len(ids) != len(set(ids)):
        return "twice"
    if sorted(w, key=repr) == sorted(s, key=repr):
        return "order"
    if [p[1:] for p in w] == [p[1:] for p in s]:
        return "id"
    if [p[0] for p in w] == [p[0] for p in s]:
        return "details"
    named = {(p[1], p[2]) for p in w}
    if any(p[0] not in {q[0] for q in w} and (p[1], p[2]) in named for p in s):
        return "pieces"
    return "places"


def is_plain_id_lookup(query):
    """`lookup DB 1234`: a place id is its file's own (across files, file index << 40 | id), so the whole's
    id names another place among the strips; source ids (`w45`) are compared."""
    return query[0] == "lookup" and query[-1].isdigit()


def ask(geodb, args, whole, shards):
    """The query on the whole file and on the strips together (the whole's path replaced by theirs)."""
    def on(paths):
        command = [geodb]
        for arg in args:
            command += paths if arg == whole else [arg]
        return subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, timeout=compare_answers.TIMEOUT_S)
    return on([whole]), on(shards)


# ---------------------------------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("geodb", metavar="GEODB")
    parser.add_argument("extract", metavar="EXTRACT", help="an OSM PBF extract")
    parser.add_argument("--parts", type=int, default=2)
    parser.add_argument("--axis", choices=["lat", "lon"], default="lat", help="cut along parallels (lat) or meridians (lon)")
    parser.add_argument("--per-kind", type=int, default=200)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--work", default="shards-work", help="where the strips and databases are written")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--show", type=int, default=5, help="differences to print per kind")
    parser.add_argument("--tolerance", type=float, default=0.05, help="share of a kind's queries that may differ")
    args = parser.parse_args()
    if args.parts < 2:
        parser.error("--parts must be at least 2")
    os.makedirs(args.work, exist_ok=True)
    started = time.monotonic()

    whole, shards, cuts, seconds = cut_and_import(args.geodb, args.extract, args.parts, args.axis, args.work)
    print(f"cut at {args.axis} {', '.join(f'{c:.5f}' for c in cuts)}; imports: "
          + ", ".join(f"{name} {s:.1f} s" for name, s in seconds.items()))
    db = compare_answers.Database(whole)
    queries = []
    for kind in KINDS:
        rng = random.Random(f"{args.seed}/{kind}")
        queries += [(kind, list(q) + ["--json"]) for q in compare_answers.KINDS[kind](db, rng, args.per_kind)
                    if not is_plain_id_lookup(q)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        answers = list(pool.map(lambda q: ask(args.geodb, q[1], whole, shards), queries))

    table, differences = {}, []
    for (kind, query), (w, s) in zip(queries, answers):
        reason = why_different(w, s)
        row = table.setdefault(kind, {"queries": 0, "identical": 0, **{r: 0 for r in REASONS}})
        row["queries"] += 1
        row[reason or "identical"] += 1
        if reason:
            differences.append((kind, reason, query, w, s))

    header = ["kind", "queries", "identical", *REASONS]
    rows = [[kind] + [row[h] for h in header[1:]] for kind, row in table.items()]
    rows.append(["all"] + [sum(r[i] for r in rows) for i in range(1, len(header))])
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    for r in [header, *rows]:
        print("  ".join(str(v).ljust(w) if i == 0 else str(v).rjust(w) for i, (v, w) in enumerate(zip(r, widths))))

    shown = {}
    for kind, reason, query, w, s in differences:
        shown[kind] = shown.get(kind, 0) + 1
        if shown[kind] > args.show:
            continue
        print(f"\n[{kind}: {reason}] geodb {shlex.join(query)}")
        print("  whole: ", places_of(w) if places_of(w) is not None else w.stderr.decode(errors="replace").strip())
        print("  strips:", places_of(s) if places_of(s) is not None else s.stderr.decode(errors="replace").strip())

    over = [kind for kind, row in table.items() if row["queries"] - row["identical"] > args.tolerance * row["queries"]]
    twice = sum(row["twice"] for row in table.values())
    print(f"\n{len(differences)} of {len(queries)} answers differ; beyond the tolerance of {args.tolerance:.0%}: "
          f"{', '.join(over) or 'none'}; places listed twice: {twice} ({time.monotonic() - started:.0f} s)")
    return 1 if over or twice else 0


if __name__ == "__main__":
    sys.exit(main())
