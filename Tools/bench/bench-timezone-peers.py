#!/usr/bin/env python3
"""Timezone lookups by the Python packages timezonefinder and tzfpy on the same points as
`geodb-bench timezone`, for a side-by-side comparison in one run. Prints JSON.

    python3 -m venv /tmp/tzpeers && /tmp/tzpeers/bin/pip install timezonefinder tzfpy
    /tmp/tzpeers/bin/python Tools/bench/bench-timezone-peers.py ../shared/data/cities500.txt \
        [--rounds 3] [--answers-dir DIR] [--compare geodb=answers.txt ...]

POINTS is a GeoNames dump (tab-separated; latitude, longitude, timezone in columns 5, 6 and 18), read
exactly as geodb-bench reads it, so answer files line up. --compare NAME=FILE reports how often each
peer agrees with an answers file (one line per point: the answer, then any other zone whose polygons
contain the point, '|'-separated, as `geodb-bench --answers` writes): `same` counts equal answers,
`among_candidates` also counts a peer's answer that is another zone containing the point (overlapping
zones, where the two programs' rules for choosing differ).
"""
import argparse
import json
import statistics
import sys
import time
from importlib import metadata


def load_points(path):
    points, zones = [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) < 18:
                continue
            try:
                lat, lon = float(fields[4]), float(fields[5])
            except ValueError:
                continue
            points.append((lat, lon))
            zones.append(fields[17])
    return points, zones


def agreement(answers, expected):
    pairs = [(a, e) for a, e in zip(answers, expected) if e]
    return sum(1 for a, e in pairs if a == e) / max(len(pairs), 1)


def measure(name, make, lookup, points, zones, rounds):
    start = time.perf_counter()
    finder = make()
    load = time.perf_counter() - start
    rates, answers = [], None
    for _ in range(rounds):
        start = time.perf_counter()
        out = [lookup(finder, lat, lon) for lat, lon in points]
        rates.append(len(points) / (time.perf_counter() - start))
        answers = answers or out
    answers = [a or "" for a in answers]
    return answers, {
        "version": metadata.version(name),
        "load_seconds": load,
        "lookups_per_second": statistics.median(rates),
        "lookups_per_second_rounds": [round(r) for r in rates],
        "geonames_agreement": agreement(answers, zones),
        "unanswered": sum(1 for a in answers if not a),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("points")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--answers-dir", help="write <peer>.answers (one tzid per line) here")
    parser.add_argument("--compare", action="append", default=[], metavar="NAME=FILE")
    args = parser.parse_args()

    points, zones = load_points(args.points)
    result = {"kind": "timezone-peers", "points_file": args.points, "points": len(points), "peers": {}}
    answers = {}
    peers = []
    try:
        from timezonefinder import TimezoneFinder
        peers.append(("timezonefinder", lambda: TimezoneFinder(in_memory=True),
                      lambda f, lat, lon: f.timezone_at(lng=lon, lat=lat)))
    except ImportError as e:
        result["peers"]["timezonefinder"] = {"error": str(e)}
    try:
        import tzfpy
        peers.append(("tzfpy", lambda: tzfpy, lambda m, lat, lon: m.get_tz(lon, lat)))
    except ImportError as e:
        result["peers"]["tzfpy"] = {"error": str(e)}

    for name, make, lookup in peers:
        answers[name], result["peers"][name] = measure(name, make, lookup, points, zones, args.rounds)
        if args.answers_dir:
            with open(f"{args.answers_dir}/{name}.answers", "w", encoding="utf-8") as f:
                f.write("\n".join(answers[name]) + "\n")

    for spec in args.compare:
        label, _, path = spec.partition("=")
        with open(path, encoding="utf-8") as f:
            other = [line.split("|") for line in f.read().split("\n")[: len(points)]]
        result.setdefault("agreement", {})[label] = {
            name: {
                "same": sum(1 for a, o in zip(mine, other) if a == o[0]) / max(len(points), 1),
                "among_candidates": sum(1 for a, o in zip(mine, other) if a in o) / max(len(points), 1),
            }
            for name, mine in answers.items()
        }
    json.dump(result, sys.stdout, indent=2, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
