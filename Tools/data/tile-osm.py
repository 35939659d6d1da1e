#!/usr/bin/env python3
"""Makes a larger synthetic OSM PBF extract by tiling a real one, to try geodb on more data.

Writes N copies of INPUT side by side in a grid. Copy k has every id (and every reference to it)
shifted by k times a per-type offset above the input's largest id of that type, and every node
shifted by whole tile widths/heights, so the copies never collide. Copy 0 is the input unchanged.

Needs the osmium CLI (Debian package osmium-tool). Example:
    python3 Tools/data/tile-osm.py Helsinki.osm.pbf --factor 20 --output /tmp/helsinki-x20.osm.pbf
"""
import argparse
import json
import math
import os
import subprocess
import sys
import time

TYPES = ("node", "way", "relation")
UNITS = 10_000_000  # OPL coordinates have at most 7 decimals: work in integer 1e-7 degrees.


def fail(message):
    sys.exit(f"tile-osm: {message}")


def to_units(text):
    sign = -1 if text.startswith("-") else 1
    whole, _, frac = text.lstrip("+-").partition(".")
    if len(frac) > 7:
        fail(f"coordinate {text} has more than 7 decimals")
    return sign * (int(whole or "0") * UNITS + int(frac.ljust(7, "0")))


def from_units(units):
    sign = "-" if units < 0 else ""
    whole, frac = divmod(abs(units), UNITS)
    return f"{sign}{whole}.{frac:07d}"


def file_info(path):
    result = subprocess.run(["osmium", "fileinfo", "-e", "-j", path], stdout=subprocess.PIPE, text=True)
    if result.returncode != 0:
        fail(f"osmium fileinfo {path} failed")
    return json.loads(result.stdout)["data"]


def read_opl(path, osm_type):
    """Yields the input's objects of one type as lists of OPL fields."""
    with subprocess.Popen(["osmium", "cat", path, "-f", "opl", "-t", osm_type],
                          stdout=subprocess.PIPE, text=True, encoding="utf-8") as reader:
        for line in reader.stdout:
            yield line.rstrip("\n").split(" ")
    if reader.returncode != 0:
        fail(f"osmium cat {path} failed")


def parse(fields):
    """Splits an object's OPL fields into (id, fields kept verbatim, fields to shift per tile)."""
    object_id = int(fields[0][1:])
    kept, shifted = [], {}
    for field in fields[1:]:
        key, value = field[0], field[1:]
        if key in "xy":
            shifted[key] = to_units(value) if value else None  # Deleted nodes have no location.
        elif key == "N":
            shifted[key] = [int(ref[1:]) for ref in value.split(",") if ref]
        elif key == "M":
            members = []
            for member in filter(None, value.split(",")):
                ref, _, role = member.partition("@")  # Roles are percent-escaped: no raw "@" or ",".
                members.append((ref[0], int(ref[1:]), role))
            shifted[key] = members
        else:
            kept.append(field)
    return object_id, " ".join(kept), shifted


def render(kind, object_id, kept, shifted, offsets, dx, dy):
    """The OPL line of one object for one tile; shifted fields go last, where osmium writes them."""
    parts = [f"{kind}{object_id + offsets[kind]}", kept]
    for key, value in shifted.items():
        if key == "x":
            parts.append("x" if value is None else "x" + from_units(value + dx))
        elif key == "y":
            parts.append("y" if value is None else "y" + from_units(value + dy))
        elif key == "N":
            parts.append("N" + ",".join(f"n{ref + offsets['n']}" for ref in value))
        else:
            parts.append("M" + ",".join(f"{t}{ref + offsets[t]}@{role}" for t, ref, role in value))
    return " ".join(parts)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("input", help="OSM PBF (or any format osmium reads) to tile")
    parser.add_argument("--factor", type=int, required=True, help="number of tiles (copies), at least 1")
    parser.add_argument("--output", required=True, help="PBF file to write (overwritten)")
    args = parser.parse_args()
    if args.factor < 1:
        fail("--factor must be at least 1")
    started = time.monotonic()

    info = file_info(args.input)
    if not info.get("bbox"):
        fail(f"{args.input} has no node locations to tile")
    if min(info["minid"][t + "s"] for t in TYPES) < 0:
        fail(f"{args.input} has negative ids; shifted copies could collide with them")
    # The next power of ten above the largest id keeps every tile's ids disjoint and readable.
    step = {t[0]: 10 ** len(str(info["maxid"][t + "s"])) for t in TYPES}

    min_x, min_y, max_x, max_y = (to_units(f"{v:.7f}") for v in info["bbox"])
    width = (max_x - min_x) + max((max_x - min_x) // 10, 1000)  # Margin so tiles do not touch.
    height = (max_y - min_y) + max((max_y - min_y) // 10, 1000)
    columns = math.ceil(math.sqrt(args.factor))
    rows = math.ceil(args.factor / columns)
    if max_x + (columns - 1) * width > 180 * UNITS or max_y + (rows - 1) * height > 90 * UNITS:
        fail(f"{columns}x{rows} tiles of {from_units(width)}x{from_units(height)} degrees east/north "
             f"of the input's bbox would pass 180 longitude or 90 latitude")

    counts = dict.fromkeys(TYPES, 0)
    writer = subprocess.Popen(["osmium", "cat", "-F", "opl", "-", "-o", args.output, "-f", "pbf", "--overwrite"],
                              stdin=subprocess.PIPE, text=True, encoding="utf-8")
    try:
        # Tile k's ids are all above tile k-1's, so writing each type tile by tile keeps the
        # output sorted by type then id. Only one type of the (small) input is held at a time.
        for osm_type in TYPES:
            kind = osm_type[0]
            objects = [parse(fields) for fields in read_opl(args.input, osm_type)]
            for k in range(args.factor):
                offsets = {t: k * s for t, s in step.items()}
                row, column = divmod(k, columns)
                dx, dy = column * width, row * height
                writer.stdin.write("".join(render(kind, *o, offsets, dx, dy) + "\n" for o in objects))
            counts[osm_type] = len(objects) * args.factor
        writer.stdin.close()
    except BrokenPipeError:
        pass  # osmium stopped reading; its exit status and message explain why.
    except BaseException:
        writer.kill()  # Do not let osmium finish a truncated file that looks complete.
        raise
    if writer.wait() != 0:
        fail("osmium failed to write " + args.output)

    print(f"tile-osm: {args.factor} tiles, {counts['node']} nodes, {counts['way']} ways, "
          f"{counts['relation']} relations, {os.path.getsize(args.output)} bytes, "
          f"{time.monotonic() - started:.1f} s -> {args.output}")


if __name__ == "__main__":
    main()
