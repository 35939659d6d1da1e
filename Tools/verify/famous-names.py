#!/usr/bin/env python3
"""Issue 36's query sets, built by rule from a GeoNames dump, and a geodb binary scored on them.

    python3 Tools/verify/famous-names.py --geodb .build/release/geodb --db world.sqlite \
        --dump ../shared/data/cities500.txt [--per-set N] [--seed S] [--json OUT] [--show K]

DB must hold DUMP imported (`geodb import cities500.txt -o world.sqlite`). Each query runs through the CLI
(`geodb search DB TEXT --limit 5 --json`, `--autocomplete` where the set says so); a query is right when its
first result is the expected GeoNames record (`source_id` geonames:ID). The sets (the big cities are the
places of at least a million people):
  other_name    a big city's other name (the dump's alternatenames, at least 4 letters, Latin script) that
                is the own name of a place at least 100 times smaller and the own or other name of no place
                more than a tenth of the city's size: the big city first ("Cologne" → Köln)
  other_script  a big city's other name in another script (Cyrillic, Han, Arabic, …) that no other place
                of more than a tenth of its size has: the big city first ("Москва" → Moscow)
  typed_other   other_name's queries typed as-you-type ("München" → Munich, not Münchenstein)
  typed_whole   a city's own name (100,000 people or more) typed as-you-type where the names of other
                places begin with it, none of those places more than twice the city's size, and every
                other place of its name less than half: the city first ("Kent" → Kent, not Kentron)
Prints per set: queries, top-1 and top-5 hit rates, the median time of a query (the CLI process included).
Standard library only.
"""
import argparse, bisect, collections, json, random, statistics, subprocess, sys, time, unicodedata


def fold(text):
    decomposed = unicodedata.normalize('NFKD', text)
    return ' '.join(''.join(c for c in decomposed if not unicodedata.combining(c)).lower().split())


def latin(text):
    return all(ord(c) < 0x250 or not c.isalpha() for c in text)


def read_dump(path):
    places = []
    with open(path, encoding='utf-8') as dump:
        for line in dump:
            f = line.rstrip('\n').split('\t')
            if len(f) < 15 or f[6] != 'P':
                continue
            places.append(dict(id=int(f[0]), name=f[1], alternates=[a for a in f[3].split(',') if a],
                               population=int(f[14] or 0)))
    return places


def build_sets(places, per_set, seed):
    own = collections.defaultdict(list)     # folded own name → populations
    other = collections.defaultdict(list)   # folded other name → (id, population)
    for p in places:
        own[fold(p['name'])].append(p['population'])
        for a in set(p['alternates']):
            other[fold(a)].append((p['id'], p['population']))
    by_name = sorted((fold(p['name']), p['id'], p['population']) for p in places)   # for names that begin so
    sets = collections.defaultdict(list)
    for city in (p for p in places if p['population'] >= 100_000):
        pop = city['population']
        for name in sorted(set(city['alternates'])) if pop >= 1_000_000 else []:
            key = fold(name)
            if len(key) < 4 or key == fold(city['name']):
                continue
            rivals = [q for i, q in other[key] if i != city['id']] + own[key]
            if any(q > pop / 10 for q in rivals):
                continue
            if latin(name):
                if own[key] and max(own[key]) * 100 <= pop:
                    sets['other_name'].append(dict(query=name, id=city['id'], name=city['name']))
            elif any(c.isalpha() for c in name):
                sets['other_script'].append(dict(query=name, id=city['id'], name=city['name']))
        # Whole names that begin longer ones, word by word.
        key = fold(city['name'])
        starting = by_name[bisect.bisect_left(by_name, (key,)):bisect.bisect_left(by_name, (key + '\U0010ffff',))]
        begun = [q for name, _, q in starting if name != key]
        namesakes = [q for name, i, q in starting if name == key and i != city['id']]
        if begun and all(q <= 2 * pop for q in begun) and all(2 * q <= pop for q in namesakes):
            sets['typed_whole'].append(dict(query=city['name'], id=city['id'], name=city['name'], typing=True))
    sets['typed_other'] = [dict(q, typing=True) for q in sets['other_name']]
    rng = random.Random(seed)
    for name, queries in sets.items():
        if len(queries) > per_set:
            sets[name] = sorted(rng.sample(queries, per_set), key=lambda q: q['id'])
    return sets


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--geodb', required=True)
    ap.add_argument('--db', required=True)
    ap.add_argument('--dump', required=True)
    ap.add_argument('--per-set', type=int, default=150)
    ap.add_argument('--seed', type=int, default=36)
    ap.add_argument('--json', help='write every query with what came back')
    ap.add_argument('--show', type=int, default=0, help='print the first K misses of each set')
    a = ap.parse_args()
    sets = build_sets(read_dump(a.dump), a.per_set, a.seed)
    rows = []
    for set_name in ('other_name', 'other_script', 'typed_other', 'typed_whole'):
        queries = sets.get(set_name, [])
        hits1 = hits5 = 0
        times, misses = [], []
        for q in queries:
            args = [a.geodb, 'search', a.db, q['query'], '--limit', '5', '--json'] + (['--autocomplete'] if q.get('typing') else [])
            start = time.perf_counter()
            p = subprocess.run(args, capture_output=True, text=True)
            times.append(time.perf_counter() - start)
            try:
                out = json.loads(p.stdout) if p.returncode == 0 else {}
            except ValueError:
                out = {}
            results = out.get('results', []) if isinstance(out, dict) else out
            ids = [str(r.get('source_id', '')) for r in results[:5]]
            want = 'geonames:%d' % q['id']
            top1, top5 = bool(ids) and ids[0] == want, want in ids
            hits1 += top1
            hits5 += top5
            got = [r.get('name') for r in results[:3]]
            if not top1:
                misses.append((q['query'], q['name'], got))
            rows.append(dict(set=set_name, query=q['query'], expected=q['name'], top1=top1, top5=top5, got=got))
        n = len(queries)
        median = statistics.median(times) * 1000 if times else 0
        print('%-13s n=%4d top1=%.3f top5=%.3f median %.1f ms' % (set_name, n, hits1 / max(n, 1), hits5 / max(n, 1), median))
        for miss in misses[:a.show]:
            print('    miss: %r (want %s) got %s' % miss)
    if a.json:
        with open(a.json, 'w', encoding='utf-8') as out:
            json.dump(rows, out, ensure_ascii=False, indent=0)


if __name__ == '__main__':
    sys.exit(main())
