#!/usr/bin/env python3
"""Makes a country query set (JSONL) from any OSM extract, by the rules ../shared/practice/countries.jsonl was
built with (see the docstring of ../shared/tools/score-countries.py), so search and reverse quality can be
measured on other extracts, tiled files and seeds. Deterministic for a given extract and seed; each kind
draws from its own random stream, so changing one kind's sampling leaves the others' queries alone.

    python3 Tools/data/make-country-queries.py EXTRACT.osm.pbf --country NAME [--seed S] [--per-kind N] --output OUT.jsonl
    python3 ../shared/tools/score-countries.py --queries OUT.jsonl --data DIR --country NAME --geodb BIN
        (DIR must hold NAME.osm.pbf, the same extract: the scorer imports it)

Needs the osmium CLI (Debian package osmium-tool); otherwise standard library only.

Geography:
  boundaries       boundary=administrative relations, assembled here: member ways joined at shared nodes,
                   gaps left by ways missing from the extract closed with straight lines (such a boundary is
                   "repaired"); relations with fewer than half of their ways in the file are ignored.
                   Rings are read with the even-odd rule, so holes and exclaves need no labelling.
  country          the admin_level 2 boundaries with an ISO3166-1 code whose ways are the most complete in the
                   file (an extract holds its own border whole and only cut pieces of its neighbours');
                   --country-code picks one, or with no such border (a city clip) takes the whole extract as
                   that country. Only objects inside it are sampled.
  country's own    boundaries of a higher level whose representative point lies inside the country
  municipal level  8 if the country has level-8 boundaries, else the level present nearest to 8 (the finer on a
                   tie); --municipal-level sets it
  city             addr:city, else addr:place, else the name of the municipal boundary containing the object
                   (city_source "addr:city", "addr:place" or "boundary_l<level>")
  land             not inside water (natural=water, waterway=riverbank, landuse=reservoir/basin) and on the
                   left of the nearest natural=coastline segment, if the file has any coastline
  names            name, then name:en/de/fr/it, alt_name, official_name, short_name, loc_name, int_name
                   (';' separates several); folded comparisons use the scorer's fold (no diacritics, lower case)

Queries (N = --per-kind, default 40, which gives the practice set's Liechtenstein sizes; its Monaco part is
about N = 15. Fewer when the extract has fewer candidates):
  address          1.5 N groups of objects with addr:housenumber + addr:street, grouped by (street, number,
                   city); expected ids and points = every object of the group. Each as exact "Street Number,
                   City"; plain (folded, lower case); reordered "Number Street City"; typo in the longest
                   street word of 5+ letters, first letter kept, alternately a substitution by a QWERTY
                   neighbour and a transposition of two different adjacent letters; structured
                   (--street/--housenumber/--city)
  street           1.25 N named highway ways grouped by (name, city of the way's middle node), distinct names;
                   with_city "Name, City" (expected: the ways of that group and their bboxes) and autocomplete:
                   the last word cut to max(3, ceil(0.6 letters)), lengthened until the text is the prefix of
                   one street name only (expected: any street of that name)
  poi              N objects with a name and one of amenity/shop/tourism/leisure/office/craft/historic whose
                   name occurs once in the file (folded, over every named object); "Name" and "Name, City".
                   A tiled file holds every name many times, so it gets none
  place            up to 1.5 N distinct names of place nodes (city/town/village/hamlet/suburb), ordered by
                   that rank; expected: every place node of that name in the file
  address_split    N groups of those addresses whose city or street has several words (hyphens or spaces),
                   mostly written without commas, the city's hyphens typed as spaces: "Number Street City",
                   "Street Number City", "City Street Number", "City, Street Number" (the city as written) and
                   "Number Street City Country" (the country's name:en or name). Kind "address", variants
                   split_*, so the scorer scores them as addresses
  reverse_admin    2 N random points on land inside the country and inside a municipal boundary, at least
                   50 m from every boundary of the country (the practice points are all 52 m or more away);
                   expected: country code, the municipal boundary (primary), the most local one (finest)
                   and all containing boundaries of the country's own levels
  reverse_address  N address nodes with no other address (another street or number) within 15 m, each with
                   a point 3-8 m away in a random direction that is itself 15 m or more from other addresses;
                   distances to addressed areas are to their outline, 0 inside (a point inside a building
                   with another number belongs to that number). Expected ids: the objects with that street and
                   number within 100 m

The practice set has no structured variant (the scorer runs it: --street/--housenumber/--city): drop the lines
with "variant": "structured" to compare pooled address scores with it. Query ids are <NAME>-s<seed>-<kind>-<n>.
"""
import argparse
import bisect
import collections
import json
import math
import random
import re
import subprocess
import sys
import time
import unicodedata

METRES_PER_DEGREE = 111319.49
STREET_TYPES = {
    "motorway", "trunk", "primary", "secondary", "tertiary", "unclassified", "residential", "living_street",
    "pedestrian", "service", "track", "road", "footway", "cycleway", "path", "steps", "bridleway",
    "motorway_link", "trunk_link", "primary_link", "secondary_link", "tertiary_link", "busway",
}
POI_KEYS = ("amenity", "shop", "tourism", "leisure", "office", "craft", "historic")
PLACE_RANK = {"city": 0, "town": 1, "village": 2, "hamlet": 3, "suburb": 4}
NAME_VARIANT_KEYS = ("name", "name:en", "name:de", "name:fr", "name:it", "alt_name", "official_name", "short_name",
                     "loc_name", "int_name")
WATER = {("natural", "water"), ("waterway", "riverbank"), ("landuse", "reservoir"), ("landuse", "basin")}
KEYBOARD_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")

BOUNDARY_MARGIN_M = 50       # reverse_admin points keep this far from every boundary
ISOLATION_M = 15             # reverse_address: no other address this close to the node or the query point
OFFSET_M = (3.0, 8.0)        # reverse_address: how far the query point lies from the node
SAME_ADDRESS_M = 100         # reverse_address: objects with the same street + number this close are answers too
NEAREST_ADDRESS_MAX_M = 2000  # reverse_admin: nearest_address_m is null beyond this

# The scorer's fold: the same letters must compare equal here and there.
FOLD = str.maketrans({'ß': 'ss', 'Ħ': 'H', 'ħ': 'h', 'Ł': 'L', 'ł': 'l', 'Ø': 'O', 'ø': 'o', 'Đ': 'D',
                      'đ': 'd', 'Æ': 'AE', 'æ': 'ae', 'Œ': 'OE', 'œ': 'oe', 'ı': 'i', '’': "'", '‘': "'",
                      '`': "'"})


def fail(message):
    sys.exit(f"make-country-queries: {message}")


def log(message):
    print(f"make-country-queries: {message}", file=sys.stderr)


def fold(text):
    text = unicodedata.normalize('NFKD', text.translate(FOLD))
    return unicodedata.normalize('NFC', ''.join(c for c in text if not unicodedata.combining(c)))


def norm(text):
    return ' '.join(fold(text or '').lower().split())


def name_variants(tags):
    """The object's names, its name first, each once."""
    names = []
    for key in NAME_VARIANT_KEYS:
        for value in (tags.get(key) or '').split(';'):
            value = value.strip()
            if value and value not in names:
                names.append(value)
    return names


def osm_sort_key(oid):
    return "nwr".index(oid[0]), int(oid[1:])


# ---------------------------------------------------------------- geometry (lon, lat in degrees; metres)

def metres_between(a, b):
    """Great-circle distance of two (lon, lat) points (the scorer's haversine)."""
    (lon1, lat1), (lon2, lat2) = a, b
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371008.8 * math.asin(min(1, math.sqrt(h)))


def local_xy(origin, point):
    """A point in metres east/north of origin: flat is exact enough over the few km compared here."""
    return ((point[0] - origin[0]) * METRES_PER_DEGREE * math.cos(math.radians(origin[1])),
            (point[1] - origin[1]) * METRES_PER_DEGREE)


def nearest_on_segment(p, a, b):
    """(metres from p to segment ab, where along it the nearest point lies: 0 = a, 1 = b)."""
    ax, ay = local_xy(p, a)
    bx, by = local_xy(p, b)
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, -(ax * dx + ay * dy) / length2))
    return math.hypot(ax + t * dx, ay + t * dy), t


def cross(o, a, b):
    """> 0 when b lies left of the line from o through a."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def ring_centroid(ring):
    """(area-weighted centroid, area in square degrees) of a closed ring; the vertex mean if it has no area.
    Computed relative to the first vertex: with raw coordinates the shoelace terms cancel each other out to
    tens of metres of error for a house."""
    x0, y0 = ring[0]
    area = cx = cy = 0.0
    for (x1, y1), (x2, y2) in zip(ring, ring[1:]):
        x1, y1, x2, y2 = x1 - x0, y1 - y0, x2 - x0, y2 - y0
        f = x1 * y2 - x2 * y1
        area += f
        cx += (x1 + x2) * f
        cy += (y1 + y2) * f
    if abs(area) < 1e-18:
        return (sum(p[0] for p in ring) / len(ring), sum(p[1] for p in ring) / len(ring)), 0.0
    return (x0 + cx / (3 * area), y0 + cy / (3 * area)), abs(area) / 2


def offset_point(origin, metres, bearing):
    """The point `metres` from origin towards `bearing` (radians clockwise from north)."""
    dlat = metres * math.cos(bearing) / METRES_PER_DEGREE
    dlon = metres * math.sin(bearing) / (METRES_PER_DEGREE * math.cos(math.radians(origin[1])))
    return origin[0] + dlon, origin[1] + dlat


class Area:
    """Closed rings read with the even-odd rule. Edges are kept in horizontal bands, so a point only looks at
    the edges of its band."""

    def __init__(self, rings):
        self.rings = rings
        xs = [p[0] for ring in rings for p in ring]
        ys = [p[1] for ring in rings for p in ring]
        self.bbox = (min(xs), min(ys), max(xs), max(ys))
        edges = [(a, b) for ring in rings for a, b in zip(ring, ring[1:])]
        self.band_count = max(1, min(4096, len(edges) // 4))
        self.band_height = (self.bbox[3] - self.bbox[1]) / self.band_count or 1e-9
        self.bands = [[] for _ in range(self.band_count)]
        for a, b in edges:
            for band in range(self.band_of(min(a[1], b[1])), self.band_of(max(a[1], b[1])) + 1):
                self.bands[band].append((a, b))

    def band_of(self, lat):
        return max(0, min(self.band_count - 1, int((lat - self.bbox[1]) / self.band_height)))

    def in_bbox(self, p, margin_deg=0.0):
        return (self.bbox[0] - margin_deg <= p[0] <= self.bbox[2] + margin_deg and
                self.bbox[1] - margin_deg <= p[1] <= self.bbox[3] + margin_deg)

    def crossings(self, lat):
        """Longitudes where the rings cross the parallel `lat`, sorted."""
        xs = [a[0] + (lat - a[1]) * (b[0] - a[0]) / (b[1] - a[1])
              for a, b in self.bands[self.band_of(lat)] if (a[1] > lat) != (b[1] > lat)]
        return sorted(xs)

    def contains(self, p):
        if not self.in_bbox(p):
            return False
        return bisect.bisect_right(self.crossings(p[1]), p[0]) % 2 == 1

    def edge_within(self, p, metres):
        """Whether some edge passes within `metres` of p."""
        dlat = metres / METRES_PER_DEGREE
        if not self.in_bbox(p, dlat * 2):
            return False
        dlon = dlat / math.cos(math.radians(p[1]))
        for band in range(self.band_of(p[1] - dlat), self.band_of(p[1] + dlat) + 1):
            for a, b in self.bands[band]:
                if min(a[0], b[0]) - dlon <= p[0] <= max(a[0], b[0]) + dlon and \
                        nearest_on_segment(p, a, b)[0] < metres:
                    return True
        return False

    def representative_point(self):
        """A point inside: the middle of the widest inside stretch along a few parallels."""
        best = None
        for fraction in (0.5, 0.3, 0.7, 0.1, 0.9):
            lat = self.bbox[1] + fraction * (self.bbox[3] - self.bbox[1])
            xs = self.crossings(lat)
            for west, east in zip(xs[0::2], xs[1::2]):
                if best is None or east - west > best[0]:
                    best = (east - west, ((west + east) / 2, lat))
        return best[1] if best else None


class GridIndex:
    """Items kept in square cells of `cell` degrees, for looking up what is near a point."""

    def __init__(self, cell):
        self.cell = cell
        self.cells = collections.defaultdict(list)

    def key(self, lon, lat):
        return int(math.floor(lon / self.cell)), int(math.floor(lat / self.cell))

    def add_box(self, item, west, south, east, north):
        (x0, y0), (x1, y1) = self.key(west, south), self.key(east, north)
        for x in range(x0, x1 + 1):
            for y in range(y0, y1 + 1):
                self.cells[x, y].append(item)

    def near(self, p, metres):
        """Items of the cells within `metres` of p (a superset: callers measure)."""
        reach_lat = metres / METRES_PER_DEGREE
        reach_lon = reach_lat / max(0.01, math.cos(math.radians(p[1])))
        (x0, y0), (x1, y1) = self.key(p[0] - reach_lon, p[1] - reach_lat), self.key(p[0] + reach_lon, p[1] + reach_lat)
        for x in range(x0, x1 + 1):
            for y in range(y0, y1 + 1):
                yield from self.cells.get((x, y), ())


class AreaIndex:
    """Areas by bbox, to find those containing a point."""

    def __init__(self, areas_with_items, cell=0.01):
        self.grid = GridIndex(cell)
        for area, item in areas_with_items:
            self.grid.add_box((area, item), *area.bbox)

    def containing(self, p):
        return [item for area, item in self.grid.cells.get(self.grid.key(*p), ()) if area.contains(p)]


class AddressIndex:
    """Every object with addr:housenumber. Distances are to an area's outline, 0 inside it: a point inside a
    building with another address belongs to that address, however far its centroid."""

    def __init__(self, features):
        self.grid = GridIndex(0.001)
        for f in features:
            if f.tags.get("addr:housenumber"):
                self.grid.add_box(f, *f.bbox)

    @staticmethod
    def distance(f, p):
        if not f.rings:
            return metres_between(p, f.point)
        inside = False
        best = math.inf
        for ring in f.rings:
            for a, b in zip(ring, ring[1:]):
                if (a[1] > p[1]) != (b[1] > p[1]) and p[0] < a[0] + (p[1] - a[1]) * (b[0] - a[0]) / (b[1] - a[1]):
                    inside = not inside
                best = min(best, nearest_on_segment(p, a, b)[0])
        return 0.0 if inside else best

    def within(self, p, metres):
        """[(metres, feature)] of the addresses within `metres` of p."""
        found = {f.id: f for f in self.grid.near(p, metres)}
        return [(d, f) for d, f in ((self.distance(f, p), f) for f in found.values()) if d <= metres]

    def nearest(self, p, metres, exclude=lambda f: False):
        """Metres to the nearest address within `metres` that is not excluded, or None."""
        return min((d for d, f in self.within(p, metres) if not exclude(f)), default=None)


class Coastline:
    """natural=coastline ways, land on their left. A point is on land when it lies left of the nearest
    segment; when the nearest point is a vertex joining two segments, it must be left of both at a convex
    corner and of either at a reflex one (each segment alone would misjudge half of the vertex's wedge)."""

    CELL = 0.01

    def __init__(self, lines):
        self.segments = [(a, b) for line in lines for a, b in zip(line, line[1:]) if a != b]
        self.starting_at = {a: i for i, (a, b) in enumerate(self.segments)}
        self.ending_at = {b: i for i, (a, b) in enumerate(self.segments)}
        self.grid = GridIndex(self.CELL)
        for i, (a, b) in enumerate(self.segments):
            self.grid.add_box(i, min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]))

    def nearest(self, p):
        """(metres, segment index, position along it) of the nearest segment."""
        radius = self.CELL * METRES_PER_DEGREE
        while True:
            found = min(((*nearest_on_segment(p, *self.segments[i]), i) for i in set(self.grid.near(p, radius))),
                        default=None)
            # A hit counts once nothing outside the searched square can be nearer.
            if found and found[0] <= radius:
                return found[0], found[2], found[1]
            radius *= 2

    def is_land(self, p):
        if not self.segments:
            return True
        _, index, t = self.nearest(p)
        a, b = self.segments[index]
        incoming = outgoing = None
        if t <= 0.0 and a in self.ending_at:
            incoming, outgoing = self.segments[self.ending_at[a]], (a, b)
        elif t >= 1.0 and b in self.starting_at:
            incoming, outgoing = (a, b), self.segments[self.starting_at[b]]
        if incoming is None:
            return cross(a, b, p) > 0
        (u, v), (_, w) = incoming, outgoing
        left_in, left_out = cross(u, v, p) > 0, cross(v, w, p) > 0
        return (left_in and left_out) if cross(u, v, w) > 0 else (left_in or left_out)


# ---------------------------------------------------------------- reading the extract

def osmium_lines(args):
    process = subprocess.Popen(["osmium", *args], stdout=subprocess.PIPE, text=True, encoding="utf-8")
    yield from process.stdout
    if process.wait() != 0:
        fail("osmium %s failed" % args[0])


def opl_unescape(text):
    return re.sub(r"%([0-9a-fA-F]+)%", lambda m: chr(int(m.group(1), 16)), text) if "%" in text else text


def opl_fields(line):
    """An OPL line as (id number, {field letter: raw text})."""
    fields = line.rstrip("\n").split(" ")
    return int(fields[0][1:]), {f[0]: f[1:] for f in fields[1:] if f}


def opl_tags(text):
    return {opl_unescape(k): opl_unescape(v) for k, _, v in (kv.partition("=") for kv in text.split(",") if kv)}


Boundary = collections.namedtuple("Boundary", "id level tags area repaired ways_present ways_total")


def assemble_rings(way_node_lists, locations):
    """Closed rings of (lon, lat) from ways given as node id lists, and the metres of straight line added to
    close the rings that ways missing from the extract left open."""
    rings, open_chains, chains_at = [], [], collections.defaultdict(list)
    for i, nodes in enumerate(way_node_lists):
        if nodes[0] != nodes[-1]:
            chains_at[nodes[0]].append(i)
            chains_at[nodes[-1]].append(i)
    used = set()
    for i, nodes in enumerate(way_node_lists):
        if nodes[0] == nodes[-1]:
            rings.append(nodes)
            continue
        if i in used:
            continue
        used.add(i)
        chain = list(nodes)
        for _ in range(2):  # grow at the end; if still open, turn round and grow at the other end
            while chain[0] != chain[-1]:
                following = [j for j in chains_at[chain[-1]] if j not in used]
                if not following:
                    break
                used.add(following[0])
                way = way_node_lists[following[0]]
                chain.extend(way[1:] if way[0] == chain[-1] else way[-2::-1])
            if chain[0] == chain[-1]:
                break
            chain.reverse()
        (rings if chain[0] == chain[-1] else open_chains).append(chain)
    gap = 0.0
    # Repair: join each open end to the nearest open end (its own start included) until all are closed.
    while open_chains:
        chain = open_chains.pop()
        while True:
            end = locations[chain[-1]]
            best = (metres_between(end, locations[chain[0]]), None, False)
            for k, other in enumerate(open_chains):
                for reverse in (False, True):
                    d = metres_between(end, locations[other[-1] if reverse else other[0]])
                    if d < best[0]:
                        best = (d, k, reverse)
            gap += best[0]
            if best[1] is None:
                chain.append(chain[0])
                rings.append(chain)
                break
            other = open_chains.pop(best[1])
            chain.extend(other[::-1] if best[2] else other)
    return [[locations[n] for n in ring] for ring in rings if len(ring) >= 4], gap


def read_boundaries(path):
    """Every boundary=administrative relation with an integer admin_level and at least one ring. Read in two
    passes, the relations and then the ways with their node locations, because osmium's ways of fetching
    referenced objects (tags-filter, getid -r) keep id sets that grow with the largest id: gigabytes for a
    tiled file."""
    relations = []
    for line in osmium_lines(["cat", path, "-t", "relation", "-f", "opl", "-o", "-"]):
        if "boundary=administrative" not in line:
            continue
        number, attrs = opl_fields(line)
        tags = opl_tags(attrs.get("T", ""))
        try:
            level = int(tags.get("admin_level", ""))
        except ValueError:
            continue
        if tags.get("boundary") == "administrative":
            members = [m.partition("@") for m in attrs.get("M", "").split(",") if m]
            way_refs = [int(ref[1:]) for ref, _, role in members if ref[0] == "w" and opl_unescape(role) != "subarea"]
            relations.append((number, level, tags, way_refs))
    wanted = {ref for *_, way_refs in relations for ref in way_refs}
    ways, locations = {}, {}
    # Clipped extracts have ways whose nodes are partly missing: keep the ways, without those nodes.
    for line in osmium_lines(["add-locations-to-ways", path, "--ignore-missing-nodes", "-f", "opl", "-o", "-"]):
        if line[0] != "w" or int(line[1:line.index(" ")]) not in wanted:
            continue
        number, attrs = opl_fields(line)
        nodes = []
        for ref in attrs.get("N", "").split(","):
            node, _, location = ref.partition("x")
            lon, _, lat = location.partition("y")
            if lon and lat:  # nodes missing from the extract have no location
                nodes.append(int(node[1:]))
                locations[nodes[-1]] = (float(lon), float(lat))
        ways[number] = nodes
    boundaries = []
    for number, level, tags, way_refs in relations:
        node_lists = [ways[ref] for ref in way_refs if len(ways.get(ref, ())) >= 2]
        rings, gap = assemble_rings(node_lists, locations)
        if rings:
            boundaries.append(Boundary("r%d" % number, level, tags, Area(rings), gap > 0,
                                       len(node_lists), len(way_refs)))
    return boundaries


# rings: the outline of an addressed area (None otherwise), so distances to addresses are to buildings' walls.
Feature = collections.namedtuple("Feature", "id tags point bbox rings")


def representative_location(geometry):
    """(point, bbox) of a GeoJSON geometry: a point itself, a line's middle vertex, an area's centroid (of its
    largest polygon's outer ring)."""
    kind, coords = geometry["type"], geometry["coordinates"]
    if kind == "Point":
        p = tuple(coords)
        return p, (p[0], p[1], p[0], p[1])
    vertices = coords if kind == "LineString" else [v for polygon in coords for v in polygon[0]]
    bbox = (min(v[0] for v in vertices), min(v[1] for v in vertices),
            max(v[0] for v in vertices), max(v[1] for v in vertices))
    if kind == "LineString":
        return tuple(coords[len(coords) // 2]), bbox
    centroid, _ = max((ring_centroid([tuple(v) for v in polygon[0]]) for polygon in coords), key=lambda c: c[1])
    return centroid, bbox


def read_features(path):
    """Tagged objects (osmium export: areas assembled), keyed by id; water areas; coastline lines."""
    features, water, coastline = {}, [], {}
    for line in osmium_lines(["export", path, "-f", "geojsonseq", "-a", "type,id",
                              "-x", "print_record_separator=false", "-o", "-"]):
        feature = json.loads(line)
        tags, geometry = feature["properties"], feature["geometry"]
        oid = tags.pop("@type")[0] + str(tags.pop("@id"))
        if geometry["type"] == "MultiPolygon" and any((k, tags.get(k)) in WATER for k, _ in WATER):
            water.append(Area([[tuple(v) for v in ring] for polygon in geometry["coordinates"] for ring in polygon]))
        if tags.get("natural") == "coastline" and geometry["type"] == "LineString":
            coastline[oid] = [tuple(v) for v in geometry["coordinates"]]
        if not ("name" in tags or "addr:housenumber" in tags):
            continue
        point, bbox = representative_location(geometry)
        rings = None
        if geometry["type"] == "MultiPolygon" and "addr:housenumber" in tags:
            rings = [[tuple(v) for v in ring] for polygon in geometry["coordinates"] for ring in polygon]
        # A closed way comes twice, as a line and as an area: its area centroid is the better location,
        # its bbox is the same.
        if oid not in features or geometry["type"] == "MultiPolygon":
            features[oid] = Feature(oid, tags, point, bbox, rings)
    return features, water, list(coastline.values())


# ---------------------------------------------------------------- the country and its boundaries

class Country:
    """The country's border, its own boundaries and its municipal level. Boundaries with fewer than half of
    their ways in the file are left out: repairing those would draw shapes that are not there."""

    def __init__(self, boundaries, code=None, municipal_level=None):
        usable = [b for b in boundaries if b.ways_present * 2 >= b.ways_total]
        coded = collections.defaultdict(list)
        for b in usable:
            iso = b.tags.get("ISO3166-1") or b.tags.get("ISO3166-1:alpha2")
            if b.level == 2 and iso:
                coded[iso.upper()].append(b)
        if code:
            self.code = code.upper()
            if self.code not in coded:
                log("no usable admin_level=2 boundary with ISO3166-1=%s: the whole extract counts as the country"
                    % self.code)
        elif coded:
            def completeness(item):
                present = sum(b.ways_present for b in item[1])
                return present / sum(b.ways_total for b in item[1]), present
            self.code = max(sorted(coded.items()), key=completeness)[0]
        else:
            fail("no admin_level=2 boundary with an ISO3166-1 code and half of its ways in the extract; "
                 "--country-code XX takes the whole extract as country XX")
        self.borders = coded.get(self.code, [])
        self.name = next((b.tags.get("name:en") or b.tags.get("name") for b in self.borders), None) or self.code
        self.index = AreaIndex([(b.area, b) for b in self.borders])
        self.own = []
        for b in usable:
            if b.level > 2:
                inside = b.area.representative_point()
                if inside and self.contains(inside):
                    self.own.append(b)
        levels = {b.level for b in self.own}
        if municipal_level is not None:
            self.municipal_level = municipal_level
        elif levels:
            self.municipal_level = min(levels, key=lambda level: (abs(level - 8), -level))
        else:
            fail("the country %s has no boundaries below admin_level 2" % self.code)
        self.municipal = [b for b in self.own if b.level == self.municipal_level]
        if not self.municipal:
            fail("the country %s has no admin_level %d boundaries" % (self.code, self.municipal_level))
        self.own_index = AreaIndex([(b.area, b) for b in self.own])
        self.all_edges = AreaIndex([(b.area, b) for b in self.borders + self.own], cell=0.02)

    def contains(self, p):
        return not self.borders or bool(self.index.containing(p))

    def containing(self, p):
        """The country's own boundaries containing p, coarsest first."""
        return sorted(self.own_index.containing(p), key=lambda b: (b.level, osm_sort_key(b.id)))

    def municipality(self, p):
        return next((b for b in self.containing(p) if b.level == self.municipal_level), None)

    def near_boundary(self, p, metres):
        candidates = {id(area): area for area, _ in self.all_edges.grid.near(p, metres)}
        return any(area.edge_within(p, metres) for area in candidates.values())

    def city(self, feature):
        """(city, source) of an object, or (None, None) if it has none."""
        for key in ("addr:city", "addr:place"):
            if feature.tags.get(key):
                return feature.tags[key], key
        municipality = self.municipality(feature.point)
        if municipality and municipality.tags.get("name"):
            return municipality.tags["name"], "boundary_l%d" % self.municipal_level
        return None, None


# ---------------------------------------------------------------- queries

def latlon(p):
    return [round(p[1], 7), round(p[0], 7)]


def boundary_ref(b, repaired=False):
    ref = dict(id=b.id, level=b.level, name=b.tags.get("name", ""), names=name_variants(b.tags))
    if repaired:
        ref["repaired"] = b.repaired
    return ref


def keyboard_neighbours():
    """Letters next to each letter on a QWERTY keyboard (rows are offset by half a key)."""
    near = collections.defaultdict(set)
    position = {c: (r, i) for r, row in enumerate(KEYBOARD_ROWS) for i, c in enumerate(row)}
    for c, (r, i) in position.items():
        for other, (r2, i2) in position.items():
            if other != c and ((r2 == r and abs(i2 - i) == 1) or (r2 == r - 1 and i2 - i in (0, 1)) or
                               (r2 == r + 1 and i - i2 in (0, 1))):
                near[c].add(other)
    return {c: sorted(v) for c, v in near.items()}


NEIGHBOURS = keyboard_neighbours()


def make_typo(street, mode, rng):
    """(typed street, typo record) with one typo in the longest word of 5+ letters, or None."""
    words = [m for m in re.finditer(r"[^\W\d_]+", street) if len(m.group()) >= 5]
    if not words:
        return None
    match = max(words, key=lambda m: len(m.group()))  # the first of the longest
    word = match.group()
    if mode == "substitution":
        positions = [i for i in range(1, len(word)) if word[i].lower() in NEIGHBOURS]
        if not positions:
            return None
        i = rng.choice(positions)
        letter = rng.choice(NEIGHBOURS[word[i].lower()])
        typed = word[:i] + (letter.upper() if word[i].isupper() else letter) + word[i + 1:]
    else:
        positions = [i for i in range(1, len(word) - 1) if word[i] != word[i + 1]]
        if not positions:
            return None
        i = rng.choice(positions)
        typed = word[:i] + word[i + 1] + word[i] + word[i + 2:]
    return street[:match.start()] + typed + street[match.end():], dict(mode=mode, word=word, typed=typed)


def address_records(features, country):
    """Address objects inside the country: (feature, street, housenumber, city, city_source)."""
    records = []
    for f in features.values():
        street, number = f.tags.get("addr:street"), f.tags.get("addr:housenumber")
        if street and number and country.contains(f.point):
            city, source = country.city(f)
            if city:
                records.append((f, street, number, city, source))
    return records


def sampled_address_groups(records, count, rng, keep=lambda street, city: True):
    """(street, number, city, expected) of `count` random groups of the records kept, grouped by (street,
    number, city); expected holds every object of the group."""
    groups = collections.defaultdict(list)
    for record in records:
        f, street, number, city, _ = record
        if keep(street, city):
            groups[norm(street), norm(number), norm(city)].append(record)
    for key in rng.sample(sorted(groups), min(count, len(groups))):
        members = sorted(groups[key], key=lambda r: osm_sort_key(r[0].id))
        _, street, number, city, source = members[0]
        yield street, number, city, dict(ids=[r[0].id for r in members], street=street, housenumber=number,
                                         city=city, city_source=source, points=[latlon(r[0].point) for r in members])


def make_address_queries(records, count, rng, prefix, country_name):
    queries, modes = [], ["substitution", "transposition"]
    for n, (street, number, city, expected) in enumerate(sampled_address_groups(records, count, rng), 1):
        base = dict(country=country_name, kind="address")
        qid = "%s-address-%03d-" % (prefix, n)
        exact = "%s %s, %s" % (street, number, city)
        queries.append(dict(id=qid + "exact", **base, variant="exact", query=exact, expected=expected))
        queries.append(dict(id=qid + "plain", **base, variant="plain", query=fold(exact).lower(), expected=expected))
        queries.append(dict(id=qid + "reordered", **base, variant="reordered",
                            query="%s %s %s" % (number, street, city), expected=expected))
        typo = make_typo(street, modes[0], rng)
        if typo:
            modes.reverse()  # the modes alternate over the addresses that get a typo
            queries.append(dict(id=qid + "typo", **base, variant="typo", query="%s %s, %s" % (typo[0], number, city),
                                typo=typo[1], expected=expected))
        queries.append(dict(id=qid + "structured", **base, variant="structured", street=street, housenumber=number,
                            city=city, expected=expected))
    return queries


def several_words(name):
    return len(re.findall(r"[^\W_]+", name)) > 1


def make_split_address_queries(records, count, rng, prefix, country_name, country_label):
    """Addresses written without commas whose town or street has several words, so the words must be split
    into number, street, town (and country) by reading them, not by punctuation."""
    queries = []
    groups = sampled_address_groups(records, count, rng, keep=lambda street, city: several_words(city) or several_words(street))
    for n, (street, number, city, expected) in enumerate(groups, 1):
        base = dict(country=country_name, kind="address")
        qid = "%s-address_split-%03d-" % (prefix, n)
        town = re.sub(r"\s*-\s*", " ", city)  # typed with a space where the name has a hyphen
        texts = dict(number_street_town="%s %s %s" % (number, street, town),
                     street_number_town="%s %s %s" % (street, number, town),
                     town_street_number="%s %s %s" % (town, street, number),
                     town_comma_street_number="%s, %s %s" % (city, street, number),
                     with_country="%s %s %s %s" % (number, street, town, country_label))
        for variant, text in texts.items():
            queries.append(dict(id=qid + variant, **base, variant="split_" + variant, query=text, expected=expected))
    return queries


def autocomplete_text(name, street_names):
    """(query, letters kept of the last word, its letters): the last word cut to max(3, ceil(0.6 n)) letters,
    lengthened until only one street name starts with the text."""
    last = name.split(" ")[-1]
    head = name[:len(name) - len(last)]
    keep = min(len(last), max(3, math.ceil(0.6 * len(last))))
    while keep < len(last):
        text = norm(head + last[:keep])
        if sum(1 for s in street_names if s.startswith(text)) <= 1:
            break
        keep += 1
    return head + last[:keep], keep, len(last)


def make_street_queries(features, country, count, rng, prefix, country_name):
    groups = collections.defaultdict(list)
    street_names = set()
    for f in features.values():
        if f.id[0] == "w" and f.tags.get("highway") in STREET_TYPES and f.tags.get("name"):
            street_names.add(norm(f.tags["name"]))
            if country.contains(f.point):
                municipality = country.municipality(f.point)
                if municipality and municipality.tags.get("name"):
                    groups[norm(f.tags["name"]), norm(municipality.tags["name"])].append((f, municipality))
    street_names = sorted(street_names)
    order = sorted(groups)
    rng.shuffle(order)
    queries, used_names = [], set()
    for key in order:
        if len(used_names) == count:
            break
        if key[0] in used_names:  # one street per name: autocomplete asks no city
            continue
        used_names.add(key[0])
        members = sorted(groups[key], key=lambda m: osm_sort_key(m[0].id))
        first, municipality = members[0]
        name, city = first.tags["name"], municipality.tags["name"]
        names = name_variants(first.tags)
        n = len(used_names)
        queries.append(dict(
            id="%s-street-%03d-with_city" % (prefix, n), country=country_name, kind="street", variant="with_city",
            query="%s, %s" % (name, city),
            expected=dict(name=name, names=names, city=city, city_source="boundary_l%d" % country.municipal_level,
                          ids=[f.id for f, _ in members],
                          bboxes=[[round(f.bbox[1], 7), round(f.bbox[0], 7), round(f.bbox[3], 7), round(f.bbox[2], 7)]
                                  for f, _ in members])))
        text, kept, letters = autocomplete_text(name, street_names)
        queries.append(dict(
            id="%s-street-%03d-autocomplete" % (prefix, n), country=country_name, kind="street", variant="autocomplete",
            query=text, autocomplete=True,
            expected=dict(name=name, names=names, prefix_letters=kept, last_word_letters=letters)))
    return queries


def poi_tag(tags):
    for key in POI_KEYS:
        if tags.get(key) and tags[key] != "no":
            return "%s=%s" % (key, tags[key])
    return None


def make_poi_queries(features, country, count, rng, prefix, country_name):
    name_count = collections.Counter(norm(f.tags["name"]) for f in features.values() if f.tags.get("name"))
    candidates = []
    for oid in sorted(features, key=osm_sort_key):
        f = features[oid]
        name = f.tags.get("name")
        if name and name_count[norm(name)] == 1 and poi_tag(f.tags) and country.contains(f.point):
            city, source = country.city(f)
            if city:
                candidates.append((f, city, source))
    queries = []
    for n, (f, city, source) in enumerate(rng.sample(candidates, min(count, len(candidates))), 1):
        name = f.tags["name"]
        expected = dict(id=f.id, name=name, names=name_variants(f.tags), tag=poi_tag(f.tags), lat=round(f.point[1], 7),
                        lon=round(f.point[0], 7), city=city, city_source=source)
        base = dict(country=country_name, kind="poi")
        queries.append(dict(id="%s-poi-%03d-name" % (prefix, n), **base, variant="name", query=name, expected=expected))
        queries.append(dict(id="%s-poi-%03d-with_city" % (prefix, n), **base, variant="with_city",
                            query="%s, %s" % (name, city), expected=expected))
    return queries


def make_place_queries(features, country, count, rng, prefix, country_name):
    place_nodes = collections.defaultdict(list)  # every place node of the file, by name
    for oid in sorted(features, key=osm_sort_key):
        f = features[oid]
        if oid[0] == "n" and f.tags.get("place") and f.tags.get("name"):
            place_nodes[norm(f.tags["name"])].append(f)
    candidates = []
    for key in sorted(place_nodes):
        ranked = [f for f in place_nodes[key] if f.tags["place"] in PLACE_RANK and country.contains(f.point)]
        if ranked:
            candidates.append((min(ranked, key=lambda f: PLACE_RANK[f.tags["place"]]), place_nodes[key]))
    chosen = rng.sample(candidates, min(count, len(candidates)))
    chosen.sort(key=lambda c: PLACE_RANK[c[0].tags["place"]])  # stable: random order within a rank
    queries = []
    for n, (f, same_name) in enumerate(chosen, 1):
        queries.append(dict(
            id="%s-place-%03d" % (prefix, n), country=country_name, kind="place", variant=f.tags["place"],
            query=f.tags["name"],
            expected=dict(id=f.id, name=f.tags["name"], names=name_variants(f.tags), place=f.tags["place"],
                          ids=[g.id for g in same_name], points=[latlon(g.point) for g in same_name])))
    return queries


def make_reverse_admin_queries(country, water, coastline, addresses, count, rng, prefix, country_name):
    water_index = AreaIndex([(area, area) for area in water])
    west, south = (min(b.area.bbox[i] for b in country.municipal) for i in (0, 1))
    east, north = (max(b.area.bbox[i] for b in country.municipal) for i in (2, 3))
    queries, attempts = [], 0
    while len(queries) < count and attempts < 1000 * count:
        attempts += 1
        p = (rng.uniform(west, east), rng.uniform(south, north))
        if not country.contains(p):
            continue
        admin = country.containing(p)
        municipality = next((b for b in admin if b.level == country.municipal_level), None)
        if municipality is None or water_index.containing(p) or not coastline.is_land(p) or \
                country.near_boundary(p, BOUNDARY_MARGIN_M):
            continue
        nearest = addresses.nearest(p, NEAREST_ADDRESS_MAX_M)
        queries.append(dict(
            id="%s-reverse_admin-%03d" % (prefix, len(queries) + 1), country=country_name, kind="reverse_admin",
            variant="land", lat=round(p[1], 7), lon=round(p[0], 7),
            expected=dict(country_code=country.code, primary=boundary_ref(municipality), finest=boundary_ref(admin[-1]),
                          admin=[boundary_ref(b, repaired=True) for b in admin],
                          nearest_address_m=None if nearest is None else round(nearest))))
    if len(queries) < count:
        log("only %d of %d reverse_admin points found in %d attempts" % (len(queries), count, attempts))
    return queries


def make_reverse_address_queries(records, addresses, count, rng, prefix, country_name):
    def same_address(street, number):
        return lambda f: (norm(f.tags.get("addr:street")) == norm(street) and
                          norm(f.tags.get("addr:housenumber")) == norm(number))
    candidates = [(f, street, number) for f, street, number, _, _ in records if f.id[0] == "n" and
                  addresses.nearest(f.point, ISOLATION_M, exclude=same_address(street, number)) is None]
    candidates.sort(key=lambda c: osm_sort_key(c[0].id))
    rng.shuffle(candidates)
    queries = []
    for f, street, number in candidates:
        if len(queries) == count:
            break
        p = offset_point(f.point, rng.uniform(*OFFSET_M), rng.uniform(0, 2 * math.pi))
        p = (round(p[0], 7), round(p[1], 7))
        other = addresses.nearest(p, SAME_ADDRESS_M, exclude=same_address(street, number))
        if other is not None and other < ISOLATION_M:  # the point itself must be clear of other addresses too
            continue
        ids = sorted((g.id for _, g in addresses.within(f.point, SAME_ADDRESS_M) if same_address(street, number)(g)),
                     key=osm_sort_key)
        queries.append(dict(
            id="%s-reverse_address-%03d" % (prefix, len(queries) + 1), country=country_name, kind="reverse_address",
            variant="near_node", lat=p[1], lon=p[0],
            expected=dict(id=f.id, ids=ids, street=street, housenumber=number,
                          offset_m=round(metres_between(p, f.point), 1),
                          nearest_other_address_m=None if other is None else round(other, 1))))
    return queries


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("extract", help="OSM extract (PBF or any format osmium reads)")
    parser.add_argument("--country", required=True, help="the name the scorer knows it by: <data>/<country>.osm.pbf")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--per-kind", type=int, default=40, help="base sample size N (default 40; see above)")
    parser.add_argument("--country-code", help="ISO3166-1 code of the country (default: the most complete one)")
    parser.add_argument("--municipal-level", type=int, help="admin_level of municipalities (default: 8 or nearest)")
    parser.add_argument("--output", required=True, help="JSONL file to write (overwritten)")
    args = parser.parse_args()
    started = time.monotonic()
    prefix = "%s-s%d" % (args.country, args.seed)
    n = args.per_kind

    def rng(kind):
        """A random stream per kind, so a change to one kind's sampling leaves the others' queries as they were."""
        return random.Random("%d-%s" % (args.seed, kind))

    country = Country(read_boundaries(args.extract), args.country_code, args.municipal_level)
    log("country %s: %d boundaries of its own, municipal level %d (%d), %d repaired" % (
        country.code, len(country.own), country.municipal_level, len(country.municipal),
        sum(b.repaired for b in country.borders + country.own)))
    features, water, coast_lines = read_features(args.extract)
    log("%d named or addressed objects, %d water areas, %d coastline ways (%.0f s)" % (
        len(features), len(water), len(coast_lines), time.monotonic() - started))
    coastline = Coastline(coast_lines)
    addresses = AddressIndex(features.values())
    records = address_records(features, country)

    queries = make_address_queries(records, round(1.5 * n), rng("address"), prefix, args.country)
    queries += make_split_address_queries(records, n, rng("address_split"), prefix, args.country,
                                          country.name)
    queries += make_street_queries(features, country, round(1.25 * n), rng("street"), prefix, args.country)
    queries += make_poi_queries(features, country, n, rng("poi"), prefix, args.country)
    queries += make_place_queries(features, country, round(1.5 * n), rng("place"), prefix, args.country)
    queries += make_reverse_admin_queries(country, water, coastline, addresses, 2 * n, rng("reverse_admin"), prefix,
                                          args.country)
    queries += make_reverse_address_queries(records, addresses, n, rng("reverse_address"), prefix, args.country)

    with open(args.output, "w", encoding="utf-8") as out:
        for q in queries:
            out.write(json.dumps(q, ensure_ascii=False) + "\n")
    counts = collections.Counter(q["kind"] for q in queries)
    log("%d queries (%s) in %.0f s -> %s" % (len(queries), ", ".join("%s %d" % kv for kv in counts.items()),
                                             time.monotonic() - started, args.output))


if __name__ == "__main__":
    main()
