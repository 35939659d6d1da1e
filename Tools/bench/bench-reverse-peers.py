#!/usr/bin/env python3
"""The Python package reverse_geocoder on the same places and points as `geodb-bench nearest`, for a
side-by-side comparison in one run. Prints JSON; --answers writes the found place per point.

    venv/bin/python Tools/bench/bench-reverse-peers.py PLACES.tsv POINTS.tsv [--answers FILE]

PLACES.tsv: lat<TAB>lon<TAB>name<TAB>country_code (the places geodb searches, exported from its database);
POINTS.tsv: lat<TAB>lon per line.
"""
import argparse
import io
import json
import statistics
import time

import reverse_geocoder


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("places")
    parser.add_argument("points")
    parser.add_argument("--answers")
    args = parser.parse_args()
    rows = ["lat,lon,name,admin1,admin2,cc"]
    with open(args.places, encoding="utf-8") as f:
        for line in f:
            lat, lon, name, cc = line.rstrip("\n").split("\t")
            rows.append(",".join([lat, lon, name.replace(",", " ").replace('"', ""), "", "", cc]))
    start = time.perf_counter()
    geocoder = reverse_geocoder.RGeocoder(mode=1, verbose=False, stream=io.StringIO("\n".join(rows) + "\n"))
    load = time.perf_counter() - start
    with open(args.points) as f:
        points = [tuple(map(float, line.split("\t"))) for line in f if line.strip()]
    single = []
    for point in points[: min(len(points), 2000)]:
        t = time.perf_counter()
        geocoder.query([point])
        single.append((time.perf_counter() - t) * 1e6)
    t = time.perf_counter()
    answers = geocoder.query(points)
    batch = time.perf_counter() - t
    single.sort()
    if args.answers:
        with open(args.answers, "w") as f:
            for a in answers:
                f.write(f"{a['lat']}\t{a['lon']}\n")
    print(json.dumps({"load_seconds": load, "single_p50_us": statistics.median(single),
                      "single_p99_us": single[min(len(single) - 1, int(len(single) * 0.99))],
                      "single_qps": len(single) / (sum(single) / 1e6), "batch_qps": len(points) / batch,
                      "points": len(points), "version": reverse_geocoder.__version__ if hasattr(reverse_geocoder, "__version__") else "?"}))


if __name__ == "__main__":
    main()
