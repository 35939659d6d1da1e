#!/usr/bin/env python3
"""Which compound words of a database's search index are indexed without their short form: for each word of
`place_fts` that ends like a compound of Schema/abbreviations.tsv's `suffix` rows ("landstrasse", short form
"landstr") and is no `word` row's form, the rows holding it but not its short form.

    python3 Tools/verify/compound-forms.py DB [DB ...] [--show N]

Search asks FTS5 for a compound and its short form ("landstrasse" OR "landstr"), half of the work of a query
for a common street ("Landstrasse 1": both words mark the same 11,160 rows of Liechtenstein x20). The short form
alone would do if every row holding a compound also held its short form; this says where the index falls short
(German spellings such as "aeulestrasse", joined hyphenated names, FTS5's own tokens). Prints per database the
compound words, how many lack their short form somewhere, and the first N with their row counts. Exit status 0.
"""
import argparse
import os
import sqlite3

ABBREVIATIONS = os.path.join(os.path.dirname(__file__), "..", "..", "Schema", "abbreviations.tsv")


def rules():
    """(suffixes as (long, short, min_stem), the forms of every `word` row)."""
    suffixes, forms = [], set()
    for line in open(ABBREVIATIONS, encoding="utf-8"):
        columns = line.rstrip("\n").split("\t")
        if columns[0] == "suffix":
            long, short = columns[1].split(",")
            suffixes.append((long, short, int(columns[2])))
        elif columns[0] == "word":
            forms.update(columns[1].split(","))
    return suffixes, forms


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("databases", nargs="+")
    parser.add_argument("--show", type=int, default=10)
    args = parser.parse_args()
    suffixes, word_forms = rules()
    for path in args.databases:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        db.execute("CREATE VIRTUAL TABLE temp.words USING fts5vocab(main, place_fts, 'row')")
        compounds, lacking = 0, []
        for (word,) in db.execute("SELECT term FROM temp.words"):
            if word in word_forms or not word.isascii():
                continue
            shorts = [word[:-len(long)] + short for long, short, stem in suffixes
                      if word.endswith(long) and len(word) >= len(long) + stem]
            if not shorts:
                continue
            compounds += 1
            expression = '"%s" NOT (%s)' % (word, " OR ".join('"%s"' % s for s in shorts))
            rows = db.execute("SELECT count(*) FROM place_fts WHERE place_fts MATCH ?", (expression,)).fetchone()[0]
            if rows:
                lacking.append((word, rows))
        lacking.sort(key=lambda item: (-item[1], item[0]))
        print(f"{path}: {compounds} compound words, {len(lacking)} indexed without their short form somewhere")
        for word, rows in lacking[:args.show]:
            print(f"  {word}: {rows} rows")


if __name__ == "__main__":
    main()
