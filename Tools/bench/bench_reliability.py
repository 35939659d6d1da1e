#!/usr/bin/env python3
"""Times geodb on crafted inputs whose work once grew with the square of their size (the 2026-11-25
probe): each at a size n and 10 n, so that linear work shows as ~10x and quadratic as ~100x. Inputs are
made here by rule, not read from outside the repository.

    python3 Tools/bench/bench_reliability.py --geodb .build/release/geodb [--baseline OLD_GEODB] [--update docs/BENCHMARKS.md]

With --baseline the same inputs run on an older build too (each run capped at --cap seconds). With
--update the "## Reliability" section of that file is replaced (or appended); otherwise it is printed.
Tools/bench/bench.py writes the same section in its full report.
"""
import argparse
import json
import os
import re
import sqlite3
import subprocess
import tempfile
import time

CAP_SECONDS = 60.0


def osm_disjoint_boundary(path, ways):
    """A boundary relation of `ways` two-node ways none of which join another (no ring can be closed)."""
    with open(path, "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6">\n')
        for i in range(ways):
            lat, lon = 47.0 + (i % 100) * 0.001, 9.5 + (i // 100) * 0.001
            f.write(f'<node id="{2 * i + 1}" lat="{lat:.4f}" lon="{lon:.4f}"/>'
                    f'<node id="{2 * i + 2}" lat="{lat + 0.0004:.4f}" lon="{lon + 0.0004:.4f}"/>\n')
        for i in range(ways):
            f.write(f'<way id="{i + 1}"><nd ref="{2 * i + 1}"/><nd ref="{2 * i + 2}"/></way>\n')
        f.write('<relation id="1">')
        for i in range(ways):
            f.write(f'<member type="way" ref="{i + 1}" role="outer"/>')
        f.write('<tag k="type" v="boundary"/><tag k="boundary" v="administrative"/>'
                '<tag k="admin_level" v="8"/><tag k="name" v="Disjoint"/></relation>\n</osm>\n')


def timezone_with_holes(path, holes):
    """One timezone polygon 50 degrees wide (many grid cells) with `holes` tiny triangular holes on a grid."""
    side = int(holes ** 0.5) + 1
    rings = [[[0, 0], [50, 0], [50, 50], [0, 50], [0, 0]]]
    step = 49.0 / side
    for i in range(holes):
        x, y = 0.1 + (i % side) * step, 0.1 + (i // side) * step
        rings.append([[x, y], [x + 0.01, y], [x + 0.01, y + 0.01], [x, y]])
    feature = {"type": "Feature", "properties": {"tzid": "Test/Holes"},
               "geometry": {"type": "Polygon", "coordinates": rings}}
    with open(path, "w") as f:
        json.dump({"type": "FeatureCollection", "features": [feature]}, f)


def xml_attributes(path, count):
    """A node with `count` attributes."""
    with open(path, "w") as f:
        f.write('<?xml version="1.0"?>\n<osm version="0.6">\n<node id="1" lat="1" lon="1" ')
        f.write(" ".join(f'a{i}="{i}"' for i in range(count)))
        f.write('/>\n</osm>\n')


def csv_rows(path, rows):
    with open(path, "w") as f:
        f.write("name,lat,lon,category,street,housenumber\n")
        for i in range(rows):
            f.write(f"Place {i},{60.17 + i * 0.0001:.4f},24.94,cafe,Mannerheimintie,{i}\n")


def edit(database, sql, *values):
    db = sqlite3.connect(database)
    db.execute(sql, values)
    db.commit()
    db.close()


def run(binary, args, cap):
    """Seconds the command took (None when it ran past `cap` and was stopped), and what it said."""
    start = time.monotonic()
    try:
        done = subprocess.run([binary] + args, capture_output=True, text=True, timeout=cap)
    except subprocess.TimeoutExpired:
        return None, f"stopped after {cap:.0f} s"
    seconds = time.monotonic() - start
    said = (done.stderr.strip().splitlines() or ["ok"])[-1] if done.returncode else "ok"
    said = re.sub(r"^Error: \S+: ", "", said)
    return seconds, said if len(said) < 90 else said[:87] + "…"


def cases(work, geodb):
    """(what, size label, prepare(size) -> command arguments) for each input kind and size."""
    def boundary(ways):
        path = os.path.join(work, f"boundary-{ways}.osm")
        osm_disjoint_boundary(path, ways)
        return ["import", path, "-o", os.path.join(work, "out.sqlite"), "--force", "-q"]

    def holes(count):
        path = os.path.join(work, f"holes-{count}.geojson")
        timezone_with_holes(path, count)
        return ["import", path, "-o", os.path.join(work, "out.sqlite"), "--force", "-q"]

    def attributes(count):
        path = os.path.join(work, f"attributes-{count}.osm")
        xml_attributes(path, count)
        return ["import", path, "-o", os.path.join(work, "out.sqlite"), "--force", "-q"]

    def places(name):
        """A database of 1,000 cafés with addresses (the table's last column) made with the geodb under test (the edits below are what a file from
        elsewhere may hold, whatever its importer allows)."""
        source, database = os.path.join(work, "rows.csv"), os.path.join(work, name)
        csv_rows(source, 1000)
        subprocess.run([geodb, "import", source, "-o", database, "--force", "-q"], check=True)
        return database

    def wide_category(width):
        # One wide cell: every other row of the table is padded to its width.
        database = places(f"wide-{width}.sqlite")
        edit(database, "DELETE FROM place_category")
        edit(database, "UPDATE place SET category = ? WHERE id = 1", "x" * width)
        return ["nearby", database, "60.17", "24.94", "--limit", "1000"]

    def control_characters(count):
        database = places(f"control-{count}.sqlite")
        edit(database, "UPDATE place SET name = ? WHERE id = 1", "\x01" * count)
        return ["lookup", database, "1"]

    return [
        ("import: a boundary of n ways that never join", "ways", boundary, [2_000, 20_000]),
        ("import: a timezone polygon with n holes", "holes", holes, [4_000, 40_000]),
        ("import: an OSM XML element with n attributes", "attributes", attributes, [20_000, 200_000]),
        ("nearby --limit 1000: one category of n characters among 1,000 rows", "characters", wide_category, [500, 5_000]),
        ("lookup: a name of n control characters", "characters", control_characters, [10_000, 100_000]),
    ]


def fmt(seconds):
    return "—" if seconds is None else f"{seconds:.2f} s"


def section(geodb, baseline=None, cap=CAP_SECONDS):
    """The report's "## Reliability" section as lines of Markdown."""
    with tempfile.TemporaryDirectory() as work:
        rows = []
        for what, unit, prepare, sizes in cases(work, geodb):
            measured = []
            for size in sizes:
                args = prepare(size)
                now, said = run(geodb, args, cap)
                before = run(baseline, args, cap) if baseline else None
                measured.append((size, now, said, before))
            small, large = measured
            ratio = f"{large[1] / small[1]:.1f}×" if small[1] and large[1] else "—"
            for size, now, said, before in measured:
                row = [what, f"{size:,} {unit}"]
                if baseline:
                    row.append(fmt(before[0]) if before[0] is not None else before[1])
                row += [fmt(now), ratio if size == sizes[-1] else "", said]
                rows.append(row)
    header = ["input", "n"] + (["before"] if baseline else []) + ["now", "10 n / n", "answer"]
    lines = ["## Reliability", "",
             "Crafted inputs whose work once grew with the square of their size (`Tools/bench/bench_reliability.py`): "
             "each at n and 10 n, so linear work is about 10× and quadratic 100×"
             + (f"; \"before\" is `{baseline}`, each run stopped after {cap:.0f} s" if baseline else "") + ".", "",
             "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def update(path, lines, before=None):
    """Replaces the section of `path` that `lines` are (from their "## " title up to the next "## "); a
    missing one goes in front of the section titled `before` when there is one, else at the end.
    Tools/bench/bench.py writes its popular section into a report the same way."""
    text = open(path).read() if os.path.exists(path) else ""
    block = "\n".join(lines) + "\n"
    pattern = re.compile(rf"^{re.escape(lines[0])}\n.*?(?=^## |\Z)", re.S | re.M)
    ahead = re.compile(rf"^## {re.escape(before)}\n", re.M) if before else None
    if pattern.search(text):
        text = pattern.sub(lambda _: block + "\n", text)
    elif ahead and ahead.search(text):
        text = ahead.sub(lambda m: block + "\n" + m.group(0), text, count=1)
    else:
        text = text.rstrip("\n") + "\n\n" + block
    with open(path, "w") as f:
        f.write(text.rstrip("\n") + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--geodb", default=".build/release/geodb")
    parser.add_argument("--baseline", help="an older geodb binary to run the same inputs on")
    parser.add_argument("--cap", type=float, default=CAP_SECONDS, help="seconds before a run is stopped")
    parser.add_argument("--update", help="replace the Reliability section of this Markdown file")
    args = parser.parse_args()
    lines = section(args.geodb, args.baseline, args.cap)
    if args.update:
        update(args.update, lines)
    else:
        print("\n".join(lines))


if __name__ == "__main__":
    main()
