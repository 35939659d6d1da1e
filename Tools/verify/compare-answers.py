#!/usr/bin/env python3
"""Proves that a change to geodb changed no answers: runs two geodb binaries (OLD and NEW) with the
same arguments over a few hundred generated queries of each kind on one or more databases and compares
their exit status, standard output and standard error byte for byte.

    python3 Tools/verify/compare-answers.py OLD_BIN NEW_BIN DB [DB ...] [--per-kind N] [--seed S]
                                     [--jobs J] [--show K] [--json-out FILE] [--ids-only]

A change of schema version needs a database per binary: give DB as OLD_DB=NEW_DB (the queries are drawn
from NEW_DB; OLD_BIN reads OLD_DB). With --ids-only two answers are the same when they have the same exit
status and name the same places in the same order (the `source_id` of every place in the output): for a
change that adds fields to every answer, to see which answers changed places.

The queries are drawn from the databases themselves (read-only, with sqlite3) and depend only on the
seed and the databases, so a run is repeatable: random names for search, autocomplete and typo search,
real addresses (and a missing house number), towns and streets for hierarchical search, points for
reverse, nearby and timezone lookups, source ids for lookup, the category list, coordinate text and a
few malformed inputs per command, and the queries people type most as `geodb-bench popular DB --list` makes
them (with the geodb-bench beside NEW_BIN; left out without one). Every command is run with --json. Nearby paging queries fetch the
next page with the cursor each binary printed itself.

Prints a table per database and kind (queries, identical, different, and how many queries OLD answered
with at least one result or with an error, to show the queries test something), then the first K
differences as unified diffs. --json-out writes every query with the hashes of both outputs.
Exit status: 0 when every answer is identical, 1 otherwise.
"""
import argparse
import concurrent.futures
import dataclasses
import difflib
import hashlib
import itertools
import json
import os
import random
import re
import shlex
import sqlite3
import subprocess
import sys
import time
import urllib.parse

TIMEOUT_S = 120             # one geodb run; a hang is reported as a difference, not waited out
DIFF_LINES = 40             # a printed diff is cut after this many lines
TIMEZONE_AT = "2026-07-01T12:00:00Z"    # a fixed instant: "now" would make offsets drift between runs
MISSING_HOUSENUMBER = "9999"
REVERSE_KINDS = ["address", "street", "poi", "suburb", "city", "state", "country"]
TOWN_KINDS = ("city", "town", "village", "suburb")


# ---------------------------------------------------------------------------------------------------
# What a query is and what running it gives


@dataclasses.dataclass(frozen=True)
class Query:
    db: str
    kind: str                   # the row of the summary table it counts in
    args: tuple                 # everything after the binary: ("search", DB, "Vaduz", "--json")
    next_page: bool = False     # also fetch the page after this one with its next_cursor


@dataclasses.dataclass(frozen=True)
class Run:
    args: tuple = dataclasses.field(compare=False)   # OLD reads OLD_DB where NEW reads NEW_DB: not an answer
    exit_code: object           # int, or "timeout"
    stdout: bytes
    stderr: bytes


def answer_ids(run):
    """The exit status and the source ids of the places an output names, in order (the output itself when
    it is not JSON)."""
    def ids(value):
        if isinstance(value, dict):
            own = [value["source_id"]] if isinstance(value.get("source_id"), str) else []
            return own + [i for key in ("place", "places", "results") if key in value for i in ids(value[key])]
        if isinstance(value, list):
            return [i for item in value for i in ids(item)]
        return []
    try:
        return run.exit_code, tuple(ids(json.loads(run.stdout)))
    except ValueError:
        return run.exit_code, run.stdout


@dataclasses.dataclass(frozen=True)
class Comparison:
    query: Query
    old: list                   # [Run], two when the query pages
    new: list
    ids_only: bool = False

    @property
    def identical(self):
        if self.ids_only:
            return [answer_ids(r) for r in self.old] == [answer_ids(r) for r in self.new]
        return self.old == self.new


# ---------------------------------------------------------------------------------------------------
# What the generators need to know about a database, read once


@dataclasses.dataclass(frozen=True)
class Place:
    id: int
    name: str
    kind: str
    lat: float
    lon: float
    country_code: str


@dataclasses.dataclass(frozen=True)
class Address:
    street: str
    housenumber: str
    city: str                   # "" when the address has none
    lat: float
    lon: float


@dataclasses.dataclass(frozen=True)
class Poi:
    name: str                   # "" when unnamed
    lat: float
    lon: float
    category_id: str            # taxonomy id: "cafe"
    parent_id: str              # its parent: "food_and_drink", or ""
    raw_tag: str                # "amenity=cafe"


class Database:
    """The names, addresses, POIs, ids and areas of one database that the queries are made from."""

    def __init__(self, path, bench=None):
        self.path = path
        self.bench = bench      # the geodb-bench that lists the popular queries, or None
        uri = "file:" + urllib.parse.quote(os.path.abspath(path)) + "?mode=ro"
        conn = sqlite3.connect(uri, uri=True)
        try:
            self.bbox = self._bbox(conn)
            self.named = self._named_places(conn)
            self.towns = sorted({p.name for p in self.named if p.kind in TOWN_KINDS})
            self.streets = sorted({p.name for p in self.named if p.kind == "street"})
            self.with_country_code = [p for p in self.named if p.country_code]
            self.addresses = self._addresses(conn)
            self.pois = self._pois(conn)
            self.categories = self._categories_with_places(conn)
            self.source_ids = self._source_ids(conn)
            self.timezone_boxes = self._timezone_boxes(conn)
        finally:
            conn.close()

    @staticmethod
    def _bbox(conn):
        """min lon, min lat, max lon, max lat of the places; the world when there are none (timezones)."""
        row = conn.execute("SELECT value FROM meta WHERE key = 'bbox'").fetchone()
        if row is None:
            return -180.0, -90.0, 180.0, 90.0
        min_lon, min_lat, max_lon, max_lat = map(float, row[0].split(","))
        return min_lon, min_lat, max_lon, max_lat

    @staticmethod
    def _named_places(conn):
        rows = conn.execute(
            "SELECT id, name, kind, lat, lon, coalesce(country_code, '') FROM place"
            " WHERE name IS NOT NULL ORDER BY id")
        return [Place(*row) for row in rows if usable_text(row[1])]

    @staticmethod
    def _addresses(conn):
        rows = conn.execute(
            "SELECT street, housenumber, coalesce(city, ''), lat, lon FROM place"
            " WHERE street IS NOT NULL AND housenumber IS NOT NULL ORDER BY id")
        return [Address(*row) for row in rows if usable_text(row[0]) and usable_text(row[1])]

    @staticmethod
    def _pois(conn):
        rows = conn.execute(
            "SELECT coalesce(p.name, ''), p.lat, p.lon, pc.category_id, coalesce(c.parent, ''),"
            " coalesce(p.category, '') FROM place_category pc JOIN place p ON p.id = pc.place_id"
            " JOIN category c ON c.id = pc.category_id ORDER BY p.id")
        return [Poi(*row) for row in rows]

    @staticmethod
    def _categories_with_places(conn):
        """Category ids with places of their own, and their parents (which stand for all children)."""
        ids = set()
        for category_id, parent in conn.execute(
                "SELECT id, parent FROM category WHERE place_count > 0"):
            ids.add(category_id)
            if parent:
                ids.add(parent)
        return sorted(ids)

    @staticmethod
    def _source_ids(conn):
        """(plain id, source id as `geodb lookup` takes it) for every place; then linked records."""
        rows = conn.execute(
            "SELECT p.id, s.format, s.name, p.source_ref FROM place p JOIN source s ON s.id = p.source_id"
            " ORDER BY p.id").fetchall()
        linked = conn.execute(
            "SELECT l.place_id, s.format, s.name, l.source_ref FROM place_link l"
            " JOIN source s ON s.id = l.source_id ORDER BY l.place_id").fetchall()
        return [(str(pid), source_id_text(fmt, name, ref)) for pid, fmt, name, ref in rows + linked]

    @staticmethod
    def _timezone_boxes(conn):
        """(min lat, max lat, min lon, max lon) of every timezone polygon; none without timezones."""
        try:
            return conn.execute(
                "SELECT min_lat, max_lat, min_lon, max_lon FROM timezone_rtree ORDER BY id").fetchall()
        except sqlite3.OperationalError:        # no timezone tables at all
            return []

    def random_point(self, rng):
        """Half uniform in the bounding box, half near a place: a world-wide box is mostly sea."""
        if self.named and rng.random() < 0.5:
            place = rng.choice(self.named)
            return jitter(place.lat, place.lon, rng, 0.01)
        min_lon, min_lat, max_lon, max_lat = self.bbox
        return rng.uniform(min_lat, max_lat), rng.uniform(min_lon, max_lon)


def usable_text(text):
    """Text that survives a command line as one positional argument ('-x' would parse as an option)."""
    return bool(text) and text.strip() == text and not text.startswith("-") and "\n" not in text


def source_id_text(fmt, source_name, ref):
    if fmt.startswith("osm"):
        return ref                              # n123, w45, r6
    if fmt == "geonames":
        return f"geonames:{ref}"
    return f"{fmt}:{source_name}:{ref}"         # csv:stores.csv:17


def clamp_point(lat, lon):
    return max(-90.0, min(90.0, lat)), max(-180.0, min(180.0, lon))


def coordinate(value):
    return f"{value:.6f}"


def lat_lon(point):
    """The point as two positionals; negative values are written as they are (geodb accepts them)."""
    return [coordinate(point[0]), coordinate(point[1])]


def near_option(point):
    # "--near=": as a separate argument, a negative latitude is read as an option of its own.
    return [f"--near={coordinate(point[0])},{coordinate(point[1])}"]


def jitter(lat, lon, rng, degrees):
    return clamp_point(lat + rng.uniform(-degrees, degrees), lon + rng.uniform(-degrees, degrees))


def first_half(text, minimum=1):
    """A prefix as a user types it: no trailing space or punctuation (a separate, empty word)."""
    return text[:max(minimum, (len(text) + 1) // 2)].rstrip(" ,-/")


def sample(rng, items, n):
    return rng.sample(items, min(n, len(items)))


# ---------------------------------------------------------------------------------------------------
# Query generators: one per kind, each returns up to n argument lists (without --json)


class NextPage(list):
    """The arguments of a query whose next page is fetched too, with the cursor its first page printed."""


def search_args(db, rng, n):
    queries = []
    for i, place in enumerate(sample(rng, db.named, n)):
        variant = i % 5
        args = ["search", db.path, place.name]
        if variant == 1:
            args += ["--limit", "5"]
        elif variant == 2:
            args += near_option(db.random_point(rng))
        elif variant == 3 and db.streets:
            args = ["search", db.path, rng.choice(db.streets), "--kind", "street"]
        elif variant == 4 and db.with_country_code:
            # --country keeps only places whose country code is known, so ask for one that has it.
            place = rng.choice(db.with_country_code)
            args = ["search", db.path, place.name, "--country", place.country_code]
        queries.append(args)
    return queries


def autocomplete_args(db, rng, n):
    queries = []
    for i, place in enumerate(sample(rng, db.named, n)):
        words = place.name.split()
        text = " ".join(words[:-1] + [first_half(words[-1])])
        args = ["search", db.path, text, "--autocomplete"]
        if i % 3 == 2:
            args += near_option(db.random_point(rng))
        queries.append(args)
    return queries


def popular_args(db, rng, n):
    """The queries people type most, as `geodb-bench popular DB --list` makes them (its rules, in one place):
    the whole texts, and the first letters as typed (n is ignored: the sets are fixed by the rules). None
    without a geodb-bench beside NEW_BIN."""
    if db.bench is None:
        return []
    sets = json.loads(subprocess.run([db.bench, "popular", db.path, "--list"], check=True, capture_output=True, text=True).stdout)
    return [["search", db.path, q["text"]] + (["--autocomplete"] if q["typing"] else [])
            for name in sorted(sets) for q in sets[name]]


def typo_args(db, rng, n):
    """One letter replaced or two adjacent letters swapped, in the name's longest word: geodb tolerates
    typos in words of 4 letters and more, and 2 edits (a swap) only from 8."""
    candidates = [p for p in db.named if len(longest_word(p.name)) >= 4]
    queries = []
    for i, place in enumerate(sample(rng, candidates, n)):
        word = longest_word(place.name)
        misspelt = swap_adjacent_letters(word, rng) if i % 2 else replace_a_letter(word, rng)
        queries.append(["search", db.path, place.name.replace(word, misspelt, 1)])
    return queries


def longest_word(text):
    return max(re.findall(r"[^\W\d_]+", text), key=len, default="")


def replace_a_letter(word, rng):
    i = rng.randrange(len(word))
    replacement = rng.choice([c for c in "abcdefghijklmnopqrstuvwxyz" if c != word[i].lower()])
    return word[:i] + replacement + word[i + 1:]


def swap_adjacent_letters(word, rng):
    pairs = [i for i in range(len(word) - 1) if word[i].lower() != word[i + 1].lower()]
    if not pairs:
        return replace_a_letter(word, rng)
    i = rng.choice(pairs)
    return word[:i] + word[i + 1] + word[i] + word[i + 2:]


def address_args(db, rng, n):
    numbers_by_street = {}
    for a in db.addresses:
        numbers_by_street.setdefault(a.street, set()).add(a.housenumber)
    queries = []
    for i, a in enumerate(sample(rng, db.addresses, n)):
        variant = i % 6
        if variant == 0 or (variant == 1 and not a.city):
            queries.append(["search", db.path, f"{a.street} {a.housenumber}"])
        elif variant == 1:
            queries.append(["search", db.path, f"{a.street} {a.housenumber}, {a.city}"])
        elif variant == 2 or (variant == 3 and not a.city):
            queries.append(["search", db.path, "--street", a.street, "--housenumber", a.housenumber])
        elif variant == 3:
            queries.append(["search", db.path, "--street", a.street, "--housenumber", a.housenumber,
                            "--city", a.city])
        elif MISSING_HOUSENUMBER in numbers_by_street[a.street]:
            continue                            # the "missing" number exists here after all
        elif variant == 4:
            queries.append(["search", db.path, f"{a.street} {MISSING_HOUSENUMBER}"])
        else:
            queries.append(["search", db.path, "--street", a.street, "--housenumber", MISSING_HOUSENUMBER])
    return queries


def hierarchical_args(db, rng, n):
    """--town alone, town + street prefix, town + street + number, and crossings, a quarter each."""
    quarter = (n + 3) // 4
    in_a_town = [a for a in db.addresses if a.city]
    queries = [["search", db.path, "--town", first_half(town, minimum=2)]
               for town in sample(rng, db.towns, quarter)]
    queries += [["search", db.path, "--town", a.city, "--street", first_half(a.street, minimum=2)]
                for a in sample(rng, in_a_town, quarter)]
    queries += [["search", db.path, "--town", a.city, "--street", a.street, "--housenumber", a.housenumber]
                for a in sample(rng, in_a_town, quarter)]
    queries += [["search", db.path, "--street", street, "--crossing"]
                for street in sample(rng, db.streets, quarter)]
    return queries[:n]


def reverse_args(db, rng, n):
    queries = []
    for i in range(n):
        if db.addresses and i % 2:
            a = rng.choice(db.addresses)
            point = jitter(a.lat, a.lon, rng, 0.0001)
        elif db.named and i % 4 == 0:
            place = rng.choice(db.named)
            point = jitter(place.lat, place.lon, rng, 0.001)
        else:
            point = db.random_point(rng)
        args = ["reverse", db.path, *lat_lon(point), "--kind", REVERSE_KINDS[i % len(REVERSE_KINDS)]]
        # i % 7 (kind) and i % 4 (option) are coprime: every kind meets every option.
        args += [[], [], ["--limit", "3"], ["--radius", "2000"]][i % 4]
        queries.append(args)
    return queries


def nearby_args(db, rng, n):
    """Around a POI: by its taxonomy id, its parent, its raw tag or no category; in a box; by name."""
    queries = []
    named_pois = [p for p in db.pois if p.name and usable_text(p.name.split()[0])]
    for i, poi in enumerate(sample(rng, db.pois, n)):
        centre = jitter(poi.lat, poi.lon, rng, 0.002)
        radius = ["--radius", rng.choice(["100", "300", "500", "1000", "5000"])]
        limit = ["--limit", rng.choice(["5", "10", "20"])]
        variant = i % 7
        if variant == 0:
            args = ["nearby", db.path, *lat_lon(centre), "--category", poi.category_id, *radius, *limit]
        elif variant == 1:
            category = poi.parent_id or rng.choice(db.categories)
            args = ["nearby", db.path, *lat_lon(centre), "--category", category, *radius, *limit]
        elif variant == 2 and poi.raw_tag:
            args = ["nearby", db.path, *lat_lon(centre), "--category", poi.raw_tag, *radius, *limit]
        elif variant == 3:
            args = ["nearby", db.path, *lat_lon(centre), *radius, *limit]
        elif variant == 4:
            args = ["nearby", db.path, box_option(poi, rng), "--category", poi.category_id]
        elif variant == 5 and named_pois:
            named = rng.choice(named_pois)
            args = ["nearby", db.path, *lat_lon(jitter(named.lat, named.lon, rng, 0.005)),
                    "--radius", "2000", "--name", first_half(named.name.split()[0], minimum=2)]
        else:
            args = NextPage(["nearby", db.path, *lat_lon(centre), "--category", poi.category_id,
                             "--radius", "5000", "--limit", "3"])
        queries.append(args)
    return queries


def box_option(poi, rng):
    """--bbox=min lon,min lat,max lon,max lat around the POI ('=': a west longitude starts with '-')."""
    half = rng.choice([0.005, 0.01, 0.03])
    min_lat, min_lon = clamp_point(poi.lat - half, poi.lon - half)
    max_lat, max_lon = clamp_point(poi.lat + half, poi.lon + half)
    return "--bbox=" + ",".join(coordinate(v) for v in (min_lon, min_lat, max_lon, max_lat))


def lookup_args(db, rng, n):
    return [["lookup", db.path, plain if i % 3 == 2 else source_id]
            for i, (plain, source_id) in enumerate(sample(rng, db.source_ids, n))]


def timezone_args(db, rng, n):
    """Half the points inside a zone's box (polygons, borders), half anywhere (mostly the sea's zones)."""
    if not db.timezone_boxes:
        return []
    queries = []
    for i in range(n):
        if i % 2:
            min_lat, max_lat, min_lon, max_lon = rng.choice(db.timezone_boxes)
            point = clamp_point(rng.uniform(min_lat, max_lat), rng.uniform(min_lon, max_lon))
        else:
            point = db.random_point(rng)
        args = ["timezone", db.path, *lat_lon(point), "--at", TIMEZONE_AT]
        if i % 5 == 4:
            args.append("--all")
        queries.append(args)
    return queries


def misc_args(db, rng, n):
    """The category list, and coordinates typed as search text."""
    queries = [["categories", db.path], ["categories", db.path, "--all"]]
    for i in range(min(n, 9)):
        lat, lon = db.random_point(rng)
        queries.append(["search", db.path, coordinate_text(lat, lon, i % 3)])
    return queries


def coordinate_text(lat, lon, style):
    """A point as a user would type it. A negative latitude is written with S: as the first character
    of the text, '-' makes it an option to `geodb search`."""
    if style == 0 and lat >= 0:
        return f"{lat:.4f}, {lon:.4f}"
    if style == 1:
        return f"{abs(lat):.5f} {'N' if lat >= 0 else 'S'}, {lon:.5f}"
    return f"{dms(abs(lat))}{'N' if lat >= 0 else 'S'} {dms(abs(lon))}{'E' if lon >= 0 else 'W'}"


def dms(degrees):
    """60.17 as 60°10'12" (whole seconds)."""
    seconds = round(degrees * 3600)
    return f"{seconds // 3600}°{seconds // 60 % 60}'{seconds % 60}\""


def bad_input_args(db, rng, n):
    """Out-of-range and malformed input to every command: the errors must not change either."""
    name = rng.choice(db.named).name if db.named else "x"
    point = lat_lon(db.random_point(rng))
    queries = [
        ["search", db.path, name, "--limit", "0"],
        ["search", db.path, name, "--limit", "101"],
        ["search", db.path, name, "--near", "95,0"],
        ["search", db.path, first_half(name), "--autocomplete", "--limit", "0"],
        ["search", db.path, "--street", name, "--housenumber", "1", "--limit", "101"],
        ["search", db.path, "--town", name, "--limit", "0"],
        ["search", db.path],
        ["reverse", db.path, "91", "0"],
        ["reverse", db.path, *point, "--limit", "0"],
        ["reverse", db.path, "45"],
        ["nearby", db.path, *point, "--radius", "0"],
        ["nearby", db.path, *point, "--limit", "1001"],
        ["nearby", db.path, *point, "--category", "no_such_category"],
        ["nearby", db.path, *point, "--after", "not-a-cursor"],
        ["lookup", db.path, "n0"],
        ["lookup", db.path, "999999999"],
        ["lookup", db.path, "geonames:0"],
        ["timezone", db.path, "91", "0", "--at", TIMEZONE_AT],
        ["timezone", db.path, *point, "--at", "not-a-date"],
    ]
    return queries[:n]


KINDS = {
    "search": search_args,
    "autocomplete": autocomplete_args,
    "typo": typo_args,
    "popular": popular_args,
    "address": address_args,
    "hierarchical": hierarchical_args,
    "reverse": reverse_args,
    "nearby": nearby_args,
    "lookup": lookup_args,
    "timezone": timezone_args,
    "misc": misc_args,
    "bad-input": bad_input_args,
}


def generate_queries(db_path, per_kind, seed, bench=None):
    """`bench`: the geodb-bench that lists the popular queries (that kind is left out without one)."""
    db = Database(db_path, bench)
    queries = []
    for kind, generator in KINDS.items():
        # A generator of its own per kind: changing one kind does not reshuffle the others.
        rng = random.Random(f"{seed}/{os.path.basename(db_path)}/{kind}")
        for args in generator(db, rng, per_kind):
            queries.append(Query(db_path, kind, tuple(args) + ("--json",), isinstance(args, NextPage)))
    return queries


# ---------------------------------------------------------------------------------------------------
# Running and comparing


def run_once(binary, args):
    try:
        done = subprocess.run([binary, *args], stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=TIMEOUT_S)
        return Run(args, done.returncode, done.stdout, done.stderr)
    except subprocess.TimeoutExpired as timeout:
        return Run(args, "timeout", timeout.stdout or b"", timeout.stderr or b"")


def run_query(binary, query, db=None):
    """Runs the query, on `db` instead of the database it was drawn from when given (what it prints of
    that file's path is then written as the query's own, so that only answers differ)."""
    args = tuple(db if db and arg == query.db else arg for arg in query.args)
    runs = [run_once(binary, args)]
    cursor = next_cursor(runs[0]) if query.next_page else None
    if cursor:
        runs.append(run_once(binary, args + ("--after", cursor)))
    if db:
        path, own = db.encode(), query.db.encode()
        runs = [dataclasses.replace(r, stdout=r.stdout.replace(path, own), stderr=r.stderr.replace(path, own)) for r in runs]
    return runs


def next_cursor(run):
    try:
        value = json.loads(run.stdout)
        return value.get("next") or value.get("next_cursor")   # {results, next}; before 2026-11-26 {places, next_cursor}
    except (ValueError, AttributeError):
        return None


def compare(old_bin, new_bin, query, old_dbs, ids_only):
    # One after the other, so both binaries see the same machine load and file cache.
    return Comparison(query, run_query(old_bin, query, old_dbs.get(query.db)), run_query(new_bin, query), ids_only)


def compare_all(old_bin, new_bin, queries, jobs, old_dbs, ids_only):
    comparisons = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for i, comparison in enumerate(pool.map(lambda q: compare(old_bin, new_bin, q, old_dbs, ids_only), queries), 1):
            comparisons.append(comparison)
            if i % 1000 == 0:
                print(f"  {i}/{len(queries)} queries compared", file=sys.stderr, flush=True)
    return comparisons


def result_count(run):
    """How many answers a --json output holds: a list's length, a page's places, else 1 (0 on error)."""
    if run.exit_code != 0:
        return 0
    try:
        value = json.loads(run.stdout)
    except ValueError:
        return 0
    if isinstance(value, list):
        return len(value)
    for key in ("results", "places"):   # a page: {results, next}; before 2026-11-26 {places, next_cursor}
        if isinstance(value, dict) and key in value:
            return len(value[key])
    return 1 if value else 0


# ---------------------------------------------------------------------------------------------------
# Reporting


def print_summary(comparisons):
    header = ("database", "kind", "queries", "identical", "different", "answered", "errors")
    rows = []
    groups = {}
    for c in comparisons:
        groups.setdefault((c.query.db, c.query.kind), []).append(c)
    for (db, kind), group in groups.items():
        rows.append((os.path.basename(db), kind, len(group),
                     sum(c.identical for c in group),
                     sum(not c.identical for c in group),
                     sum(all(result_count(run) > 0 for run in c.old) for c in group),
                     sum(any(run.exit_code != 0 for run in c.old) for c in group)))
    rows.append(("all", "", *(sum(row[i] for row in rows) for i in range(2, len(header)))))
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        print("  ".join(str(v).ljust(w) if i < 2 else str(v).rjust(w)
                        for i, (v, w) in enumerate(zip(row, widths))))
    print("(answered: OLD gave at least one result on every page; errors: OLD exited non-zero)")


def describe(run):
    """One run as text lines for a diff; None is the next page a binary printed no cursor for."""
    if run is None:
        return ["(no next page: the first page printed no next_cursor)"]
    return [f"exit status: {run.exit_code}",
            *output_lines(run.stdout),
            "--- stderr:",
            *output_lines(run.stderr)]


def output_lines(data):
    lines = data.decode("utf-8", "replace").splitlines()
    if data and not data.endswith(b"\n"):
        lines.append("\\ no newline at end")     # as diff(1) says it: splitlines() would hide it
    return lines


def difference_lines(comparison):
    """A unified diff per run that differs: the first page, then the next page when the query pages."""
    lines = []
    for page, (old, new) in enumerate(itertools.zip_longest(comparison.old, comparison.new)):
        if old == new:
            continue
        if page > 0:
            lines.append(f"next page: geodb {shlex.join((old or new).args)}")
        if comparison.ids_only:
            (old_status, old_ids), (new_status, new_ids) = answer_ids(old), answer_ids(new)
            if (old_status, old_ids) != (new_status, new_ids):
                lines += [f"OLD exit {old_status}: {old_ids if isinstance(old_ids, tuple) else old.stderr.decode(errors='replace').strip()}",
                          f"NEW exit {new_status}: {new_ids if isinstance(new_ids, tuple) else new.stderr.decode(errors='replace').strip()}"]
            continue
        diff = list(difflib.unified_diff(describe(old), describe(new), "OLD", "NEW", lineterm=""))
        lines += diff or ["(the outputs differ in bytes that do not show as text, e.g. \\r or invalid UTF-8)"]
    return lines


def print_difference(comparison):
    print(f"\n[{os.path.basename(comparison.query.db)} / {comparison.query.kind}]"
          f" geodb {shlex.join(comparison.query.args)}")
    lines = difference_lines(comparison)
    for line in lines[:DIFF_LINES]:
        print(line)
    if len(lines) > DIFF_LINES:
        print(f"... {len(lines) - DIFF_LINES} more lines")


def run_record(run):
    return {"args": list(run.args), "exit_code": run.exit_code,
            "stdout_sha256": hashlib.sha256(run.stdout).hexdigest(),
            "stderr_sha256": hashlib.sha256(run.stderr).hexdigest(),
            "results": result_count(run)}


def write_json(path, comparisons, old_bin, new_bin):
    report = {
        "old": old_bin, "new": new_bin,
        "queries": len(comparisons),
        "different": sum(not c.identical for c in comparisons),
        "comparisons": [{"db": c.query.db, "kind": c.query.kind, "args": list(c.query.args),
                         "identical": c.identical,
                         "old": [run_record(r) for r in c.old],
                         "new": [run_record(r) for r in c.new]} for c in comparisons],
    }
    with open(path, "w", encoding="utf-8") as f:
        json.dump(report, f, indent=1, ensure_ascii=False)
        f.write("\n")


# ---------------------------------------------------------------------------------------------------


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old_bin", metavar="OLD_BIN")
    parser.add_argument("new_bin", metavar="NEW_BIN")
    parser.add_argument("dbs", metavar="DB", nargs="+")
    parser.add_argument("--per-kind", type=int, default=200, help="queries of each kind per database")
    parser.add_argument("--seed", default="1")
    parser.add_argument("--jobs", type=int, default=2, help="queries compared at once")
    parser.add_argument("--show", type=int, default=5, help="differences to print")
    parser.add_argument("--json-out", metavar="FILE", help="write every query and its output hashes")
    parser.add_argument("--ids-only", action="store_true", help="compare exit status and the places named, in order")
    args = parser.parse_args()
    # OLD_DB=NEW_DB: the queries come from NEW_DB, OLD_BIN reads OLD_DB.
    args.old_dbs = {}
    for i, db in enumerate(args.dbs):
        if "=" in db:
            old, new = db.split("=", 1)
            args.old_dbs[new] = old
            args.dbs[i] = new
    for binary in (args.old_bin, args.new_bin):
        if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
            parser.error(f"{binary} is not an executable file")
    for db in args.dbs + list(args.old_dbs.values()):
        if not os.path.isfile(db):
            parser.error(f"{db} does not exist")
    if args.jobs < 1 or args.per_kind < 1:
        parser.error("--jobs and --per-kind must be at least 1")
    return args


def main():
    args = parse_arguments()
    started = time.monotonic()
    bench = os.path.join(os.path.dirname(args.new_bin), "geodb-bench")
    if not os.access(bench, os.X_OK):
        print(f"note: no {bench}, so the popular queries are left out", file=sys.stderr)
        bench = None
    queries = [q for db in args.dbs for q in generate_queries(db, args.per_kind, args.seed, bench)]
    print(f"{len(queries)} queries on {len(args.dbs)} database(s), {args.jobs} at a time", file=sys.stderr)
    comparisons = compare_all(args.old_bin, args.new_bin, queries, args.jobs, args.old_dbs, args.ids_only)
    print_summary(comparisons)
    different = [c for c in comparisons if not c.identical]
    for comparison in different[:args.show]:
        print_difference(comparison)
    if len(different) > args.show:
        print(f"\n... and {len(different) - args.show} more differences (--show to print more)")
    if args.json_out:
        write_json(args.json_out, comparisons, args.old_bin, args.new_bin)
    verdict = "all identical" if not different else f"{len(different)} of {len(comparisons)} differ"
    print(f"\n{verdict} ({time.monotonic() - started:.0f} s)")
    return 0 if not different else 1


if __name__ == "__main__":
    sys.exit(main())
