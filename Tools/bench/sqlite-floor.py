#!/usr/bin/env python3
"""SQLite's own share of a geodb import: a lower bound on its time that no geodb code can beat.

Given a database geodb wrote (e.g. from cities500.txt), builds the same tables again in a new file from
the rows already in it, with nothing but SQLite's C code doing the work: the place and place_name rows,
the name index (FTS5 with prefix indexes), its optimize, the typo vocabulary (search_word and its
trigram index search_token), the secondary indexes and ANALYZE, as geodb's importer does them (the
full-text steps as in Sources/GeoDBImport/FullTextBuilder.swift). Parsing the input, building the
records and search texts, and the copies between files are left out, so a real import can only take
longer. Table and index definitions are read from the database itself (Schema/ stays their only source).

Prints JSON: each step's wall and CPU seconds, their sums, and the full-text chain (insert → optimize →
vocabulary → trigram index), whose steps each need the one before and so run one after the other.
Python's sqlite3 module here links the system libsqlite3, the library geodb uses.

    python3 Tools/bench/sqlite-floor.py bench-work/cities500.sqlite
"""
import json
import os
import sqlite3
import sys
import tempfile
import time

FTS_CHAIN = ("name index", "name index optimize", "vocabulary", "trigram index")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    source = sys.argv[1]
    with tempfile.TemporaryDirectory(dir=os.path.dirname(os.path.abspath(source))) as scratch:
        db = sqlite3.connect(os.path.join(scratch, "floor.sqlite"), isolation_level=None)
        db.executescript("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -65536;")
        db.execute("ATTACH DATABASE ? AS src", (source,))
        schema = dict(db.execute("SELECT name, sql FROM src.sqlite_master WHERE sql IS NOT NULL"))
        for table in ("place", "place_name", "place_fts", "search_word", "search_token"):
            db.execute(schema[table])
        # The importer's merge settings while it builds (FullTextMerging).
        for table in ("place_fts", "search_token"):
            db.execute(f"INSERT INTO {table}({table}, rank) VALUES ('automerge', 0)")
            db.execute(f"INSERT INTO {table}({table}, rank) VALUES ('crisismerge', 64)")
        # The index texts, made beforehand (untimed): each place's own names in order and its address parts,
        # and a second row of its alternate names and address when it has any (docs/SCHEMA.md, place_fts).
        address = """trim(coalesce(street, '') || ' ' || coalesce(housenumber, '') || ' ' || coalesce(postcode, '')
                          || ' ' || coalesce(city, '') || ' ' || coalesce(state, '') || ' ' || coalesce(country, ''))"""
        def names(alternate):
            return f"""(SELECT group_concat(name, ' ; ') FROM (SELECT name FROM src.place_name n WHERE n.place_id = p.id
                        AND n.type {'' if alternate else 'NOT '}IN ('alt_name', 'old_name', 'short_name') ORDER BY n.rowid))"""
        db.executescript(f"""
            CREATE TEMP TABLE text AS
              SELECT p.id, {names(False)} AS name, {address} AS address FROM src.place p
              UNION ALL
              SELECT p.id | (1 << 36), {names(True)}, {address} FROM src.place p
              WHERE EXISTS (SELECT 1 FROM src.place_name n WHERE n.place_id = p.id AND n.type IN ('alt_name', 'old_name', 'short_name'))
              ORDER BY 1;
            """)
        steps = [
            # A WHERE clause keeps SQLite from copying the records whole (its transfer optimization):
            # these are row inserts, as the importer's.
            ("place rows", ["INSERT INTO place SELECT * FROM src.place WHERE id > 0"]),
            ("name rows", ["INSERT INTO place_name SELECT * FROM src.place_name WHERE place_id > 0"]),
            ("name index", ["INSERT INTO place_fts(rowid, name, address) SELECT id, coalesce(name, ''), address FROM temp.text"]),
            ("name index optimize", ["INSERT INTO place_fts(place_fts) VALUES ('optimize')"]),
            ("vocabulary", ["CREATE VIRTUAL TABLE temp.vocabulary USING fts5vocab(main, place_fts, 'col')",
                            "INSERT INTO search_word(token, places, language_places, address_places) "
                            "SELECT term, sum(doc) FILTER (WHERE col IN ('name', 'lang_name')) AS places, "
                            "coalesce(sum(doc) FILTER (WHERE col = 'lang_name'), 0), "
                            "coalesce(sum(doc) FILTER (WHERE col = 'address'), 0) "
                            "FROM temp.vocabulary WHERE length(term) BETWEEN 4 AND 32 GROUP BY term HAVING places > 0"]),
            ("trigram index", ["INSERT INTO search_token(search_token) VALUES ('rebuild')",
                               "INSERT INTO search_token(search_token) VALUES ('optimize')"]),
            ("secondary indexes", [sql for name, sql in schema.items()
                                   if name.startswith("idx_place_") and (" ON place(" in sql or " ON place_name(" in sql)]),
            ("analyze", ["ANALYZE main"]),
        ]
        timings = []
        for name, statements in steps:
            wall, cpu = time.perf_counter(), time.process_time()
            db.execute("BEGIN")
            for sql in statements:
                db.execute(sql)
            db.execute("COMMIT")
            timings.append(dict(step=name, wall=time.perf_counter() - wall, cpu=time.process_time() - cpu))
        rows = db.execute("SELECT count(*) FROM place").fetchone()[0]
        db.close()
    print(json.dumps(dict(
        rows=rows, steps=timings,
        wall=sum(t["wall"] for t in timings), cpu=sum(t["cpu"] for t in timings),
        fts_chain_wall=sum(t["wall"] for t in timings if t["step"] in FTS_CHAIN),
        sqlite=sqlite3.sqlite_version)))


if __name__ == "__main__":
    main()
