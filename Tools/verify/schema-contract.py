#!/usr/bin/env python3
"""Proves that a program which is not geodb can read a geodb database from docs/SCHEMA.md alone, with
nothing but Python's standard library: it checks the schema version, runs every SQL statement of the
doc as written, answers a radius search, category totals, every place's address, one geometry blob and
timezone lookups by the doc's rules, and checks the doc's own worked examples (a geometry blob, Helsinki's grid cells).

    python3 Tools/verify/schema-contract.py DB [--doc docs/SCHEMA.md] [--points FILE]

Prints one JSON object (keys: examples, radius, cafes_500m, category_counts, geometry, addresses, and timezones
when the database has them). Any contract violation: a one-line error on stderr, exit status 1.
"""
import argparse
import json
import math
import re
import sqlite3
import sys

SCHEMA_VERSION = 17
EARTH_RADIUS_M = 6371008.8          # the doc's mean Earth radius
UNITS_PER_DEGREE = 10_000_000       # coordinates are stored in integers of 1e-7 degree
CENTER = (60.1699, 24.9384)         # Helsinki, the doc's example point
RADIUS_M = 500
NEAREST_ZONE_M = 22224              # step 4: 12 nautical miles
DEFAULT_POINTS = [
    (60.1699, 24.9384),     # Helsinki
    (40.7128, -74.0060),    # New York
    (35.6762, 139.6503),    # Tokyo
    (-33.8688, 151.2093),   # Sydney
    (27.7172, 85.3240),     # Kathmandu
    (43.8256, 87.6168),     # Urumqi
    (64.1466, -21.9426),    # Reykjavik
    (30.0, -40.0),          # mid-Atlantic
    (21.3069, -157.8583),   # Honolulu
    (-33.4489, -70.6693),   # Santiago
]


class ContractViolation(Exception):
    pass


# -- opening and version ------------------------------------------------------------------------------

def open_read_only(path):
    # A URI filename: escape the characters URIs give a meaning to.
    escaped = path.replace("%", "%25").replace("?", "%3f").replace("#", "%23")
    try:
        db = sqlite3.connect(f"file:{escaped}?mode=ro", uri=True)
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.Error as error:
        raise ContractViolation(f"{path}: cannot open read-only: {error}")
    return db


def check_schema_version(db):
    user_version = db.execute("PRAGMA user_version").fetchone()[0]
    try:
        row = db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    except sqlite3.Error as error:
        raise ContractViolation(f"no meta table: {error}")
    meta_version = row[0] if row else None
    if not (user_version == SCHEMA_VERSION and str(meta_version) == str(SCHEMA_VERSION)):
        raise ContractViolation(f"schema version: PRAGMA user_version {user_version}, meta schema_version "
                                f"{meta_version!r}; this reader knows version {SCHEMA_VERSION}")


def table_exists(db, name):
    return db.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (name,)).fetchone() is not None


def has_timezones(db):
    return table_exists(db, "timezone") and db.execute("SELECT 1 FROM timezone LIMIT 1").fetchone() is not None


# -- the doc's SQL, run as written ----------------------------------------------------------------------

def fenced_blocks(doc, language):
    return re.findall(rf"^```{language}\n(.*?)^```", doc, re.S | re.M)


def labelled_statements(block):
    """(label, sql) pairs: each statement follows its comment lines (the first is the label), ends with ';'."""
    statements, comments, sql = [], [], []
    for line in block.splitlines():
        if not line.strip():
            continue
        if line.startswith("--") and not sql:
            comments.append(line[2:].strip())
            continue
        if not comments:
            raise ContractViolation(f"doc SQL statement without a comment line: {line.strip()!r}")
        sql.append(line)
        if line.rstrip().endswith(";"):
            statements.append((comments[0], "\n".join(sql)))
            comments, sql = [], []
    if comments or sql:
        raise ContractViolation(f"doc SQL block ends inside a statement: {(comments or sql)[0]!r}")
    return statements


def json_value(value):
    return value.hex() if isinstance(value, bytes) else value


def run_example(db, label, sql):
    try:
        cursor = db.execute(sql)
        rows = [[json_value(v) for v in row] for row in cursor.fetchall()]
    except sqlite3.Error as error:
        # Databases written without timezones may lack their tables; every other failure is the doc's.
        if str(error).startswith("no such table: timezone") and not table_exists(db, "timezone"):
            return {"label": label, "skipped": "no timezones"}
        raise ContractViolation(f"doc statement '{label}' fails: {error}")
    return {"label": label, "columns": [d[0] for d in cursor.description], "rows": rows}


def doc_examples(db, doc):
    return [run_example(db, label, sql)
            for block in fenced_blocks(doc, "sql") for label, sql in labelled_statements(block)]


# -- radius search: R*Tree box, then exact distance ------------------------------------------------------

def haversine_m(lat1, lon1, lat2, lon2):
    phi1, phi2 = math.radians(lat1), math.radians(lat2)
    a = (math.sin((phi2 - phi1) / 2) ** 2
         + math.cos(phi1) * math.cos(phi2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2)
    return 2 * EARTH_RADIUS_M * math.asin(min(1.0, math.sqrt(a)))


def circle_box(lat, lon, radius_m):
    """(min_lon, max_lon, min_lat, max_lat) holding the circle; generous, the R*Tree is only a filter."""
    dlat = math.degrees(radius_m / EARTH_RADIUS_M) + 1e-6
    dlon = dlat / math.cos(math.radians(lat))
    return lon - dlon, lon + dlon, lat - dlat, lat + dlat


def places_within(db, lat, lon, radius_m, category=None):
    min_lon, max_lon, min_lat, max_lat = circle_box(lat, lon, radius_m)
    rows = db.execute("""
        SELECT p.id, p.lat, p.lon FROM place_rtree r JOIN place p ON p.id = r.id
        LEFT JOIN place_category pc ON pc.place_id = p.id
        WHERE r.min_lon <= :max_lon AND r.max_lon >= :min_lon AND r.min_lat <= :max_lat AND r.max_lat >= :min_lat
          AND (:category IS NULL OR pc.category_id = :category)""",
        {"min_lon": min_lon, "max_lon": max_lon, "min_lat": min_lat, "max_lat": max_lat, "category": category})
    found = sorted((haversine_m(lat, lon, p_lat, p_lon), pid) for pid, p_lat, p_lon in rows)
    found = [(d, pid) for d, pid in found if d <= radius_m]
    return {"center": [lat, lon], "radius_m": radius_m,
            "ids": [pid for _, pid in found], "distances_m": [d for d, _ in found]}


# -- category totals ------------------------------------------------------------------------------------

def category_counts(db):
    """Places per top-level category and its descendants, checked against the sum of category.place_count."""
    counts = {}
    for (top,) in db.execute("SELECT id FROM category WHERE parent IS NULL ORDER BY id").fetchall():
        places, declared = db.execute("""
            WITH RECURSIVE c(id) AS (SELECT ? UNION ALL SELECT k.id FROM category k JOIN c ON k.parent = c.id)
            SELECT (SELECT count(*) FROM place_category WHERE category_id IN (SELECT id FROM c)),
                   (SELECT sum(place_count) FROM category WHERE id IN (SELECT id FROM c))""", (top,)).fetchone()
        if places != declared:
            raise ContractViolation(f"category {top}: {places} places in place_category, "
                                    f"but category.place_count adds up to {declared}")
        counts[top] = places
    return counts


# -- address hierarchy ----------------------------------------------------------------------------------

LEVELS = ["neighbourhood", "suburb", "city", "county", "state", "country"]


def addresses(db):
    """Every place's full address by the doc's rule (section Address hierarchy): its own columns first, then
    the names of its set's areas and the set's postcode; the set's country code over the place's own."""
    joins = " ".join(f"LEFT JOIN place a{i} ON a{i}.id = s.{level}_id" for i, level in enumerate(LEVELS))
    names = ", ".join(f"a{i}.name" for i in range(len(LEVELS)))
    result = {}
    for row in db.execute(f"""
            SELECT p.id, p.housenumber, p.street, p.postcode, p.city, p.country_code, p.state, p.country,
                   s.postcode, s.country_code, {names}
            FROM place p LEFT JOIN place_area_set pas ON pas.place_id = p.id
            LEFT JOIN area_set s ON s.id = pas.area_set_id {joins}"""):
        own = dict(zip(["housenumber", "street", "postcode", "city", "country_code", "state", "country"], row[1:8]))
        address = {key: value for key, value in own.items() if value is not None}
        for level, name in zip(LEVELS, row[10:]):
            if name is not None:
                address.setdefault(level, name)
        if row[8] is not None:
            address.setdefault("postcode", row[8])
        if row[9] is not None:
            address["country_code"] = row[9]   # the set's country over the place's own
        result[str(row[0])] = address
    return result


# -- geometry blobs -------------------------------------------------------------------------------------

class BlobReader:
    def __init__(self, blob):
        self.blob, self.index = bytes(blob), 0
        self.lon = self.lat = 0         # deltas are from the previous point of the whole blob

    def byte(self):
        if self.index >= len(self.blob):
            raise ContractViolation("geometry blob ends early")
        self.index += 1
        return self.blob[self.index - 1]

    def varint(self):
        value, shift = 0, 0
        while True:
            b = self.byte()
            value |= (b & 0x7F) << shift
            if b < 0x80:
                return value
            shift += 7

    def zigzag(self):
        v = self.varint()
        return (v >> 1) ^ -(v & 1)

    def run(self):
        points = []
        for _ in range(self.varint()):
            self.lon += self.zigzag()
            self.lat += self.zigzag()
            points.append((self.lon, self.lat))
        return points


def decode_geometry(blob):
    """(type, parts) with points as (lon, lat) in 1e-7 degree: lines for type 1, lists of rings for type 2."""
    reader = BlobReader(blob)
    kind = reader.byte()
    if kind == 1:
        parts = [reader.run() for _ in range(reader.varint())]
    elif kind == 2:
        parts = [[reader.run() for _ in range(reader.varint())] for _ in range(reader.varint())]
    else:
        raise ContractViolation(f"geometry blob of unknown type {kind}")
    if reader.index != len(blob):
        raise ContractViolation(f"geometry blob has {len(blob) - reader.index} bytes after its last point")
    return kind, parts


def blob_points(kind, parts):
    return [p for line in parts for p in line] if kind == 1 else [p for poly in parts for ring in poly for p in ring]


def in_degrees(run):
    return [[lon / UNITS_PER_DEGREE, lat / UNITS_PER_DEGREE] for lon, lat in run]


def unwrapped(doc):
    """The doc's text with its line breaks folded to spaces: sentences wrap anywhere."""
    return " ".join(doc.split())


def check_doc_geometry_example(doc):
    match = re.search(r"a line from \(lon (-?\d+), lat (-?\d+)\) to \(lon (-?\d+), lat (-?\d+)\), "
                      r"in 1e-7 degrees: `([0-9a-fA-F ]+)`", unwrapped(doc))
    if not match:
        raise ContractViolation("doc: the geometry blob example is missing")
    lon1, lat1, lon2, lat2 = map(int, match.groups()[:4])
    decoded = decode_geometry(bytes.fromhex(match.group(5)))
    if decoded != (1, [[(lon1, lat1), (lon2, lat2)]]):
        raise ContractViolation(f"doc: the geometry example `{match.group(5)}` decodes to {decoded}")


def street_geometry(db):
    """The geometry of Mannerheimintie (else the street with the largest blob), checked against its box."""
    row = db.execute("""
        SELECT p.id, g.geometry, r.min_lon, r.max_lon, r.min_lat, r.max_lat
        FROM place p JOIN place_geometry g ON g.place_id = p.id LEFT JOIN place_rtree r ON r.id = p.id
        WHERE p.kind = 'street'
        ORDER BY p.name = 'Mannerheimintie' DESC, length(g.geometry) DESC, p.id LIMIT 1""").fetchone()
    if row is None:
        return None
    place_id, blob, *box = row
    if box[0] is None:
        raise ContractViolation(f"place {place_id} has no place_rtree row")
    kind, parts = decode_geometry(blob)
    min_lon, max_lon, min_lat, max_lat = box
    for lon, lat in blob_points(kind, parts):
        # The box was rounded outwards from these very values: containment is exact.
        if not (min_lon <= lon / UNITS_PER_DEGREE <= max_lon and min_lat <= lat / UNITS_PER_DEGREE <= max_lat):
            raise ContractViolation(f"place {place_id}: point {lon / UNITS_PER_DEGREE}, {lat / UNITS_PER_DEGREE} "
                                    f"lies outside its place_rtree box {box}")
    if kind == 1:
        parts = [in_degrees(line) for line in parts]
    else:
        parts = [[in_degrees(ring) for ring in polygon] for polygon in parts]
    return {"place_id": place_id, "type": kind, "parts": parts}


# -- timezones ------------------------------------------------------------------------------------------

def doc_timezone_cells(doc):
    """The doc's own `timezone_cells` function, from its python block."""
    namespace = {}
    for block in fenced_blocks(doc, "python"):
        exec(block, namespace)
    if "timezone_cells" not in namespace:
        raise ContractViolation("doc: no python block defines timezone_cells")
    return namespace["timezone_cells"]


def check_doc_cell_example(doc, timezone_cells):
    match = re.search(r"For Helsinki \((-?[\d.]+), (-?[\d.]+)\):.*?cells ([\d, ]+?) \(", unwrapped(doc))
    if not match:
        raise ContractViolation("doc: the worked example of Helsinki's grid cells is missing")
    lat, lon = float(match.group(1)), float(match.group(2))
    listed = [int(cell) for cell in re.findall(r"\d+", match.group(3))]
    computed = timezone_cells(lat, lon)
    if computed != listed:
        raise ContractViolation(f"doc: timezone_cells({lat}, {lon}) = {computed}, the doc lists {listed}")


def round_half_away(v):
    # As the doc's timezone_cells rounds, so that the polygon steps test the point the grid looked up.
    return int(math.copysign(math.floor(abs(v) + 0.5), v))


def point_units(lat, lon):
    """The point in integers of 1e-7 degree, normalised as the cell numbering does."""
    if not (-90 <= lat <= 90 and -180 <= lon <= 180):
        raise ContractViolation(f"{lat}, {lon} is not a position")
    x = round_half_away(lon * UNITS_PER_DEGREE)
    y = min(round_half_away(lat * UNITS_PER_DEGREE), 899_999_999)
    return (-1_800_000_000 if x == 1_800_000_000 else x), y


def grid_zone(db, cells):
    rows = db.execute(f"""SELECT t.tzid FROM timezone_grid g JOIN timezone t ON t.id = g.timezone_id
                          WHERE g.cell IN ({",".join("?" * len(cells))})""", cells).fetchall()
    if len(rows) > 1:
        raise ContractViolation(f"cells {cells} list {len(rows)} zones; a point lies in at most one listed cell")
    return rows[0][0] if rows else None


def zone_polygons(db, min_lon, max_lon, min_lat, max_lat):
    """(tzid, rings) of the polygons whose R*Tree box meets the box (degrees)."""
    rows = db.execute("""
        SELECT t.tzid, p.geometry FROM timezone_rtree r
        JOIN timezone_polygon p ON p.id = r.id JOIN timezone t ON t.id = p.timezone_id
        WHERE r.min_lon <= ? AND r.max_lon >= ? AND r.min_lat <= ? AND r.max_lat >= ? ORDER BY p.id""",
        (max_lon, min_lon, max_lat, min_lat)).fetchall()
    polygons = []
    for tzid, blob in rows:
        kind, parts = decode_geometry(blob)
        if kind != 2 or len(parts) != 1:
            raise ContractViolation(f"timezone polygon of {tzid} is not one polygon (type {kind}, {len(parts)} parts)")
        polygons.append((tzid, parts[0]))
    return polygons


def edges(ring):
    return zip(ring, ring[1:] + ring[:1])      # rings are closed implicitly


def odd_crossings(ring, x, y):
    """Whether the eastward ray from (x, y) crosses the ring an odd number of times (the doc's edge rule)."""
    odd = False
    for a, b in edges(ring):
        if (a[1] > y) != (b[1] > y):
            lo, hi = (b, a) if a[1] > y else (a, b)
            # The crossing lies strictly east of x; multiplied out so that it stays in integers.
            if (hi[0] - lo[0]) * (y - lo[1]) > (hi[1] - lo[1]) * (x - lo[0]):
                odd = not odd
    return odd


def polygon_contains(rings, x, y):
    return odd_crossings(rings[0], x, y) and not any(odd_crossings(hole, x, y) for hole in rings[1:])


def ring_area(ring):
    """Planar area in square degrees (shoelace, exact in integers until the final division)."""
    twice = sum(a[0] * b[1] - b[0] * a[1] for a, b in edges(ring))
    return abs(twice) / 2 / UNITS_PER_DEGREE ** 2


def containing_zone(db, x, y):
    lon, lat = x / UNITS_PER_DEGREE, y / UNITS_PER_DEGREE
    containing = [(ring_area(rings[0]), tzid) for tzid, rings in zone_polygons(db, lon, lon, lat, lat)
                  if polygon_contains(rings, x, y)]
    return min(containing)[1] if containing else None


def segment_distance_m(x, y, a, b, kx, ky):
    ax, ay = (a[0] - x) * kx, (a[1] - y) * ky
    ex, ey = (b[0] - a[0]) * kx, (b[1] - a[1]) * ky
    length = ex * ex + ey * ey
    t = min(max(-(ax * ex + ay * ey) / length, 0.0), 1.0) if length > 0 else 0.0
    return math.hypot(ax + t * ex, ay + t * ey)


def nearest_zone(db, x, y):
    """The zone with the nearest polygon edge nearer than 22,224 m (planar), looking across the antimeridian."""
    lat = y / UNITS_PER_DEGREE
    cos_lat = math.cos(math.radians(lat))
    ky = EARTH_RADIUS_M * math.pi / 180 / UNITS_PER_DEGREE        # metres per unit of latitude
    kx = ky * cos_lat
    # The R*Tree window of the search circle in degrees (all longitudes near the poles).
    dlat = NEAREST_ZONE_M / ky / UNITS_PER_DEGREE
    dlon = min(dlat / max(cos_lat, 1e-6), 180)
    best = (NEAREST_ZONE_M, None)
    for shift in (0, -360 * UNITS_PER_DEGREE, 360 * UNITS_PER_DEGREE):
        sx = x + shift
        lon = sx / UNITS_PER_DEGREE
        if lon - dlon > 180 or lon + dlon < -180:
            continue
        for tzid, rings in zone_polygons(db, max(lon - dlon, -180), min(lon + dlon, 180), lat - dlat, lat + dlat):
            for ring in rings:
                for a, b in edges(ring):
                    d = segment_distance_m(sx, y, a, b, kx, ky)
                    if d < best[0]:
                        best = (d, tzid)
    return best[1]


def nautical_zone(x):
    hours = min(max(math.floor((x / UNITS_PER_DEGREE + 7.5) / 15), -12), 12)
    return "Etc/GMT" if hours == 0 else f"Etc/GMT{'-' if hours > 0 else '+'}{abs(hours)}"


def timezone_of(db, timezone_cells, lat, lon):
    x, y = point_units(lat, lon)
    tzid = grid_zone(db, timezone_cells(lat, lon))
    if tzid:
        return tzid, 1
    tzid = containing_zone(db, x, y)
    if tzid:
        return tzid, 2
    tzid = nearest_zone(db, x, y)
    if tzid:
        return tzid, 4
    return nautical_zone(x), 5


def read_points(path):
    if path is None:
        return DEFAULT_POINTS
    try:
        with open(path, encoding="utf-8") as f:
            points = json.load(f)
        return [(float(lat), float(lon)) for lat, lon in points]
    except (OSError, ValueError, TypeError) as error:
        raise ContractViolation(f"{path}: not a JSON list of [lat, lon]: {error}")


# -- the search index's row order ------------------------------------------------------------------------

def check_search_rowids(db):
    """Every place_fts row is at the rowid the doc gives: step << 37 | alternates << 36 | id, a row of its
    own names for every place, and one of its alternate names for every place with an alternate name
    that is not also one of its own names. place_fts keeps no column sizes, so its rows are read as the
    documents of its words (fts5vocab 'instance'): a row without words is not seen, and a place is required
    to have a row only when its name holds an ASCII letter or digit (a word whatever else it holds)."""
    db.execute("CREATE VIRTUAL TABLE temp.place_fts_instance USING fts5vocab(main, place_fts, 'instance')")
    rowids = {rowid for (rowid,) in db.execute("SELECT DISTINCT doc FROM temp.place_fts_instance")}
    def worded(name):
        return name is not None and any(c.isascii() and c.isalnum() for c in name)
    alternate_types = ("alt_name", "old_name", "short_name")
    names = {}
    for place_id, name, kind in db.execute("SELECT place_id, name, type FROM place_name"):
        own, alternate = names.setdefault(place_id, (set(), set()))
        (alternate if kind in alternate_types else own).add(name)
    expected = set()
    for place_id, importance, kind, name in db.execute("SELECT id, importance, kind, name FROM place"):
        rank = (10 * min(1.0, max(0.0, importance)) + (2 if kind == "street" else 0)) / 12
        own, alternate = names.get(place_id, (set(), set()))
        rows = [(rank, 0, worded(name))] + ([(rank - 0.5, 1, any(map(worded, alternate - own)))] if alternate - own else [])
        for row_rank, is_alternate, required in rows:
            rowid = math.floor((1 - row_rank) / 1.5 * 67108863) << 37 | is_alternate << 36 | place_id
            if required and rowid not in rowids:
                raise ContractViolation(f"place {place_id} ({kind}, importance {importance}) has no place_fts row "
                                        f"{'of alternate names ' if is_alternate else ''}at rowid {rowid}")
            expected.add(rowid)
    if rowids - expected:
        raise ContractViolation(f"place_fts has {len(rowids - expected)} rows the doc does not give")


def check_search_columns(db):
    """The doc's columns of place_fts: a place without names has its street in `street` (search compares it
    as the address's name), a named place's street is in `address`; `{street address}` finds both. Checked
    on the streets' first words of up to 200 places of each."""
    def first_word(text):
        words = "".join(c if c.isalnum() else " " for c in text.lower()).split()
        return '"' + words[0] + '"' if words else None

    for named, column, other in ((False, "street", "address"), (True, "address", "street")):
        # A street derived for a POI without a house number is shown, not indexed (docs/SCHEMA.md, place_fts).
        rows = db.execute(f"""SELECT id, street FROM place WHERE street IS NOT NULL AND name IS {'NOT ' if named else ''}NULL
                              AND NOT (kind = 'poi' AND housenumber IS NULL AND ',' || derived || ',' LIKE '%,street,%')
                              ORDER BY id LIMIT 200""").fetchall()
        for place_id, street in rows:
            word = first_word(street)
            if word is None:
                continue
            def matches(columns):
                return db.execute(f"SELECT 1 FROM place_fts WHERE place_fts MATCH ? AND rowid & 68719476735 = ?",
                                  (f"{columns}: {word}", place_id)).fetchone() is not None
            if not matches(column) or not matches("{street address}"):
                raise ContractViolation(f"place {place_id} ({'named' if named else 'no name'}): its street's word {word} "
                                        f"is not in place_fts's `{column}` column")
            if not named and matches(other):
                raise ContractViolation(f"place {place_id} (no name): its street's word {word} is in `{other}` too")


# -- main -----------------------------------------------------------------------------------------------

def contract_report(db_path, doc_path, points_path):
    try:
        with open(doc_path, encoding="utf-8") as f:
            doc = f.read()
    except OSError as error:
        raise ContractViolation(f"cannot read the doc: {error}")
    check_doc_geometry_example(doc)
    timezone_cells = doc_timezone_cells(doc)
    check_doc_cell_example(doc, timezone_cells)

    db = open_read_only(db_path)
    check_schema_version(db)
    check_search_rowids(db)
    check_search_columns(db)
    lat, lon = CENTER
    report = {
        "examples": doc_examples(db, doc),
        "radius": places_within(db, lat, lon, RADIUS_M),
        "cafes_500m": places_within(db, lat, lon, RADIUS_M, category="cafe"),
        "category_counts": category_counts(db),
        "geometry": street_geometry(db),
        "addresses": addresses(db),
    }
    if has_timezones(db):
        report["timezones"] = []
        for p_lat, p_lon in read_points(points_path):
            tzid, step = timezone_of(db, timezone_cells, p_lat, p_lon)
            report["timezones"].append({"lat": p_lat, "lon": p_lon, "tzid": tzid, "step": step})
    return report


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("db")
    parser.add_argument("--doc", default="docs/SCHEMA.md")
    parser.add_argument("--points", help="JSON list of [lat, lon] for the timezone lookups")
    args = parser.parse_args()
    try:
        report = contract_report(args.db, args.doc, args.points)
    except (ContractViolation, sqlite3.Error) as error:
        print(f"schema-contract: {error}", file=sys.stderr)
        return 1
    print(json.dumps(report, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
