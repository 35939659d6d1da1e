#!/usr/bin/env python3
"""Measures how well geodb corrects typos in the names people search most: the most important towns of a
database, each mistyped by rule, searched with `geodb search`, judged by the first result's name.

    python3 Tools/verify/typo-quality.py --geodb BIN DB [--count N] [--seed S] [--jobs J] [--show K]

The towns are the N most important distinct names of kind city or town in DB (read-only, with sqlite3) whose
longest word has 5 letters or more. Each gets one slip of each kind in that word, at a random letter (seeded):
two adjacent letters swapped, one left out, one doubled, one replaced by another letter; and, where the word
has 8 letters or more, two slips (two of those kinds, at letters apart). A typo that is itself a name in DB is
left out (then it is no typo). A query is right at 1 when the first result's name, folded as search folds it
(case and diacritics), is the town's; at 5 when one of the first five is.

Prints per kind: queries, right at 1, right at 5; then the first K misses. Standard library only.
"""
import argparse
import concurrent.futures
import json
import random
import sqlite3
import subprocess
import unicodedata

KINDS = ["swap", "drop", "double", "replace"]


def fold(text):
    return "".join(c for c in unicodedata.normalize("NFKD", text.casefold()) if not unicodedata.combining(c))


def slip(word, kind, i, rng):
    """`word` with one slip of `kind` at letter i (swap: letters i and i + 1; a swap of two equal letters, which
    would change nothing, is a letter left out instead)."""
    if kind == "swap" and word[i].lower() != word[i + 1].lower():
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    if kind in ("swap", "drop"):
        return word[:i] + word[i + 1:]
    if kind == "double":
        return word[:i] + word[i] + word[i:]
    letter = rng.choice([c for c in "abcdefghijklmnopqrstuvwxyz" if c != word[i].lower()])
    return word[:i] + letter + word[i + 1:]


def mistyped(name, rng):
    """(kind, text) for each slip kind, and "two" for two slips in a word of 8 letters or more, one in each
    half. Never at the first letter: people rarely miss it."""
    words = name.split(" ")
    longest = max(range(len(words)), key=lambda j: len(words[j]))
    word = words[longest]
    out = [(kind, slip(word, kind, rng.randrange(1, len(word) - 1), rng)) for kind in KINDS]
    if len(word) >= 8:
        first, second = rng.sample(KINDS, 2)
        later = slip(word, second, rng.randrange(len(word) // 2 + 1, len(word) - 1), rng)
        out.append(("two", slip(later, first, rng.randrange(1, len(word) // 2 - 1), rng)))
    return [(kind, " ".join(words[:longest] + [text] + words[longest + 1:])) for kind, text in out]


def run(binary, db, text):
    result = subprocess.run([binary, "search", db, text, "--json", "--limit", "5"], capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        return None
    return [r.get("name") or "" for r in json.loads(result.stdout)["results"]]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--geodb", required=True)
    parser.add_argument("db")
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--show", type=int, default=10)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    connection = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
    names = [row[0] for row in connection.execute(
        "SELECT name FROM place WHERE kind IN ('city', 'town') AND name IS NOT NULL GROUP BY name ORDER BY max(importance) DESC")]
    known = {fold(row[0]) for row in connection.execute("SELECT DISTINCT name FROM place_name")}
    queries = []
    for name in names:
        if max(len(w) for w in name.split(" ")) < 5:
            continue
        queries += [(kind, name, text) for kind, text in mistyped(name, rng) if fold(text) not in known]
        if len({q[1] for q in queries}) >= args.count:
            break
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        answers = list(pool.map(lambda q: run(args.geodb, args.db, q[2]), queries))
    table = {}
    misses = []
    for (kind, name, text), found in zip(queries, answers):
        row = table.setdefault(kind, [0, 0, 0])
        row[0] += 1
        folded = [fold(n) for n in found or []]
        row[1] += folded[:1] == [fold(name)]
        row[2] += fold(name) in folded
        if folded[:1] != [fold(name)]:
            misses.append(f"{kind:8} {text!r} → {found[:3] if found is not None else 'error'} (meant {name!r})")
    print(f"{'kind':8} {'queries':>7} {'at 1':>6} {'at 5':>6}")
    total = [0, 0, 0]
    for kind in KINDS + ["two"]:
        if kind in table:
            n, one, five = table[kind]
            total = [total[0] + n, total[1] + one, total[2] + five]
            print(f"{kind:8} {n:7} {one / n:6.3f} {five / n:6.3f}")
    print(f"{'all':8} {total[0]:7} {total[1] / total[0]:6.3f} {total[2] / total[0]:6.3f}")
    for line in misses[:args.show]:
        print("  " + line)


if __name__ == "__main__":
    main()
