#!/usr/bin/env python3
"""Measures how many of Nominatim's own API acceptance scenarios (test/bdd/features/api/ in
github.com/osm-search/Nominatim) pass against `geodb serve`.

    python3 Tools/verify/nominatim-api-suite.py [--geodb BIN] [--nominatim DIR] [--data DIR]
        [--filter SUBSTRING] [--verbose] [--json OUT] [--min-pass PERCENT] [--top N] [--rebuild]

Nominatim is GPL: none of its files are kept in this repository. The feature files are read at run
time from a checkout given with --nominatim (a normal checkout, or a bare git directory, read with
`git show HEAD:path`); without it the runner clones the repository (`git clone --depth 1`) into
.build/nominatim, or reuses that clone.

The data is Nominatim's API test database: test/testdb/apidb-test-data.pbf and
additional_api_test.data.osm. Taken from --data DIR when given (files
nominatim-apidb-test-data.osm.pbf and nominatim-additional-api-test.osm, as in the project's shared
folder), else from the checkout's test/testdb when it holds them, else from ../shared/data beside the
repository. Imported with `geodb import` into .build/nominatim-suite/ (rebuilt when the inputs or the
binary change), then served with `geodb serve DB --port 0` for the run and stopped at the end.
The world's time zones (SampleData/timezones.geojson) are imported with it: they are what names the
country of a place no boundary of the extract holds, as Nominatim's country grid, which every Nominatim
database loads, does for it (docs/SCHEMA.md, "Address hierarchy").
Nominatim also loads TIGER data (test/testdb/tiger) into its test database: its CSV files are read from
the checkout at run time (into .build/nominatim-suite/tiger/, never kept in this repository) and imported
as a directory of TIGER files with the rest. The special phrases it loads geodb does not read, so
scenarios that need them fail as data differences.

The Gherkin is interpreted here, with the standard library only: Background, Scenario, Scenario
Outline with Examples, data tables, doc strings, @skip tags (skipped, as pytest does). Each step means
what Nominatim's step definitions (test/bdd/conftest.py, test_api.py, utils/) make it mean:
`sending v1/ENDPOINT [with format F]` is a GET of /ENDPOINT with the table as parameters;
`geocoding "Q"` is /search with format=jsonv2 and addressdetails=1 that must answer 200 with JSON;
`reverse geocoding LAT,LON` is /reverse with format=jsonv2; "the result is valid FMT" checks the exact
Content-Type Nominatim sends and parses the body as Nominatim's tests do; field comparisons use the
same key paths (a+b), value markers (!fm, !in_box, !wkt, !:d, !i, !dict, !ints, !set) and string
conversion. A scenario passes only when every step does. A step no definition matches makes the
scenario "unsupported" (listed at the end); `Given an unknown database` starts a second server on a
database file that does not exist (with `geodb serve --wait`, which starts without its file as Nominatim's
server starts without its database).

Prints per feature file: scenarios, passed, failed, unsupported; the total pass rate; the most common
failure categories (first failing step of each scenario), which say which server change would win the
most scenarios, and the same grouped in a few broad classes. --verbose prints the first failing step of each failed scenario with the reason.
--json OUT writes every scenario's result. Exit status 0 unless --min-pass is given and the pass rate
is below it (1), or the runner itself cannot run (2).
"""
import argparse
import ast
import collections
import collections.abc
import hashlib
import json
import math
import os
import re
import select
import shutil
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FEATURE_ROOT = 'test/bdd/features/api'
TESTDB_PBF = 'test/testdb/apidb-test-data.pbf'
TESTDB_TIGER = 'test/testdb/tiger'
TESTDB_OSM = 'test/testdb/additional_api_test.data.osm'
DATA_PBF = 'nominatim-apidb-test-data.osm.pbf'
DATA_OSM = 'nominatim-additional-api-test.osm'
NOMINATIM_URL = 'https://github.com/osm-search/Nominatim'

# What Nominatim's tests require as Content-Type for "the result is valid FMT".
CONTENT_TYPES = {
    'json': 'application/json; charset=utf-8',
    'xml': 'text/xml; charset=utf-8',
    'geojson': 'application/json; charset=utf-8',
    'geocodejson': 'application/json; charset=utf-8',
    'html': 'text/html; charset=utf-8',
}
KNOWN_FORMATS = {'xml', 'json', 'jsonv2', 'geojson', 'geocodejson'}
# Nominatim's default output format per endpoint (for naming failure categories only).
DEFAULT_FORMAT = {'search': 'jsonv2', 'reverse': 'xml', 'lookup': 'xml', 'details': 'json',
                  'status': 'text'}


def die(msg):
    print(f"nominatim-api-suite: {msg}", file=sys.stderr)
    sys.exit(2)


def trunc(text, n=160):
    text = str(text).replace('\n', '\\n')
    return text if len(text) <= n else text[:n - 1] + '…'


# --------------------------------------------------------------------------------------------------
# The Nominatim checkout: a directory or a bare git directory.

class Checkout:
    def __init__(self, path):
        self.path = Path(path).resolve()
        self.bare = not (self.path / 'test').is_dir() and (self.path / 'HEAD').is_file() \
            and (self.path / 'objects').is_dir()
        if not self.bare and not (self.path / FEATURE_ROOT).is_dir():
            die(f"{self.path} has no {FEATURE_ROOT} (not a Nominatim checkout or bare git dir)")

    def _git(self, *args, binary=False):
        res = subprocess.run(['git', f'--git-dir={self.path}', *args], capture_output=True)
        if res.returncode != 0:
            return None
        return res.stdout if binary else res.stdout.decode('utf-8')

    def list(self, prefix):
        if self.bare:
            out = self._git('ls-tree', '-r', '--name-only', 'HEAD', prefix)
            if out is None:
                die(f"cannot list {prefix} in {self.path}")
            return sorted(p for p in out.splitlines() if p)
        base = self.path / prefix
        return sorted(str(p.relative_to(self.path)) for p in base.rglob('*') if p.is_file())

    def read(self, rel, binary=False):
        if self.bare:
            return self._git('show', f'HEAD:{rel}', binary=binary)
        p = self.path / rel
        if not p.is_file():
            return None
        return p.read_bytes() if binary else p.read_text(encoding='utf-8')

    def describe(self):
        if self.bare:
            head = self._git('rev-parse', 'HEAD')
        else:
            res = subprocess.run(['git', '-C', str(self.path), 'rev-parse', 'HEAD'],
                                 capture_output=True, text=True)
            head = res.stdout if res.returncode == 0 else None
        return f"{self.path}" + (f" @ {head.strip()[:12]}" if head else '')


def get_checkout(arg):
    if arg:
        return Checkout(arg)
    target = REPO / '.build' / 'nominatim'
    if (target / FEATURE_ROOT).is_dir():
        return Checkout(target)
    print(f"No --nominatim given: cloning {NOMINATIM_URL} into {target} ...", flush=True)
    target.parent.mkdir(parents=True, exist_ok=True)
    res = subprocess.run(['git', 'clone', '--depth', '1', NOMINATIM_URL, str(target)])
    if res.returncode != 0 or not (target / FEATURE_ROOT).is_dir():
        die(f"could not clone {NOMINATIM_URL} into {target} (git exit {res.returncode}); "
            "give a checkout with --nominatim DIR")
    return Checkout(target)


# --------------------------------------------------------------------------------------------------
# Data and server.

def sha256_file(path):
    h = hashlib.sha256()
    with open(path, 'rb') as f:
        for chunk in iter(lambda: f.read(1 << 20), b''):
            h.update(chunk)
    return h.hexdigest()


def find_inputs(args, checkout, cache):
    if args.data:
        d = Path(args.data)
        inputs = [d / DATA_PBF, d / DATA_OSM]
        for p in inputs:
            if not p.is_file():
                die(f"--data {d}: {p.name} missing")
        return inputs, f"--data {d}"
    pbf = checkout.read(TESTDB_PBF, binary=True)
    osm = checkout.read(TESTDB_OSM, binary=True)
    if pbf and osm and not pbf.startswith(b'version https://git-lfs'):
        src = cache / 'testdb'
        src.mkdir(parents=True, exist_ok=True)
        inputs = [src / 'apidb-test-data.osm.pbf', src / 'additional_api_test.data.osm']
        for p, content in zip(inputs, (pbf, osm)):
            if not p.is_file() or p.read_bytes() != content:
                p.write_bytes(content)
        return inputs, "the checkout's test/testdb"
    d = REPO.parent / 'shared' / 'data'
    inputs = [d / DATA_PBF, d / DATA_OSM]
    for p in inputs:
        if not p.is_file():
            die(f"no test data: the checkout has no {TESTDB_PBF} and {p} is missing; "
                "give --data DIR")
    return inputs, str(d)


def tiger_input(checkout, cache):
    """The checkout's TIGER CSV files (test/testdb/tiger) copied into a directory of the cache."""
    target = cache / 'tiger'
    target.mkdir(parents=True, exist_ok=True)
    names = [p for p in checkout.list(TESTDB_TIGER) if p.endswith('.csv')]
    if not names:
        die(f"the checkout has no {TESTDB_TIGER}/*.csv")
    for rel in names:
        content = checkout.read(rel, binary=True)
        p = target / Path(rel).name
        if not p.is_file() or p.read_bytes() != content:
            p.write_bytes(content)
    return target


def sha256_input(path):
    """A file's hash, or of a directory the hashes of its files in name order."""
    if path.is_dir():
        return [sha256_file(p) for p in sorted(path.iterdir()) if p.is_file()]
    return sha256_file(path)


def build_db(geodb, inputs, cache, rebuild):
    db = cache / 'apidb.sqlite'
    stamp = cache / 'apidb.stamp'
    key = json.dumps({'geodb': sha256_file(geodb), 'inputs': [sha256_input(p) for p in inputs]})
    if not rebuild and db.is_file() and stamp.is_file() and stamp.read_text() == key:
        return db, False
    cmd = [str(geodb), 'import', '--force', '--quiet', '-o', str(db), *map(str, inputs)]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        die(f"import failed ({' '.join(cmd)}):\n{res.stderr}")
    stamp.write_text(key)
    return db, True


class Server:
    def __init__(self, geodb, db, log_path, extra_args=()):
        self.proc = None
        self.error = None
        self.base = None
        self.log = open(log_path, 'w')
        self.proc = subprocess.Popen([str(geodb), 'serve', str(db), '--port', '0', '--quiet', *extra_args],
                                     stdout=subprocess.PIPE, stderr=self.log, text=True)
        deadline = time.time() + 30
        while time.time() < deadline:
            ready, _, _ = select.select([self.proc.stdout], [], [], 0.5)
            if not ready:
                if self.proc.poll() is not None:
                    break
                continue
            line = self.proc.stdout.readline()
            if not line:
                break
            m = re.search(r'listening on (http://[^\s/]+)/?', line)
            if m:
                self.base = m.group(1)
                # keep reading standard output so that the server never blocks on it
                threading.Thread(target=self.proc.stdout.read, daemon=True).start()
                return
        try:
            rc = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            rc = None
        self.stop()
        self.log.flush()
        self.error = f"geodb serve did not start (exit {rc}): " + \
            trunc(Path(log_path).read_text().strip(), 200)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


# --------------------------------------------------------------------------------------------------
# Gherkin.

class Step:
    def __init__(self, keyword, text, line):
        self.keyword, self.text, self.line = keyword, text, line
        self.table = None
        self.docstring = None
        self.kind = None  # given / when / then


class ScenarioDef:
    def __init__(self, name, line, tags, outline):
        self.name, self.line, self.tags, self.outline = name, line, tags, outline
        self.steps = []
        self.examples = []  # list of (header, rows)


class Feature:
    def __init__(self, path):
        self.path = path
        self.name = ''
        self.tags = []
        self.background = []
        self.scenarios = []


def split_cells(line):
    """One Gherkin table row: cells split on unescaped |, with \\|, \\\\ and \\n unescaped."""
    body = line.strip()
    assert body.startswith('|')
    cells, cur, i = [], '', 1
    while i < len(body):
        c = body[i]
        if c == '\\' and i + 1 < len(body):
            nxt = body[i + 1]
            cur += {'|': '|', '\\': '\\', 'n': '\n'}.get(nxt, '\\' + nxt)
            i += 2
            continue
        if c == '|':
            cells.append(cur.strip())
            cur = ''
        else:
            cur += c
        i += 1
    return cells


STEP_KEYWORDS = ('Given ', 'When ', 'Then ', 'And ', 'But ', '* ')
SCENARIO_KEYWORDS = ('Scenario Outline:', 'Scenario Template:', 'Scenario:', 'Example:')


def parse_feature(path, text):
    feat = Feature(path)
    tags = []
    mode = None  # 'background', 'scenario', 'examples'
    current = None
    last_step = None
    lines = [ln.rstrip("\r") for ln in text.split("\n")]  # not splitlines(): \v and \f are data
    i = 0
    while i < len(lines):
        raw = lines[i]
        line = raw.strip()
        i += 1
        if line.startswith('"""') or line.startswith('```'):
            fence = line[:3]
            indent = len(raw) - len(raw.lstrip())
            doc = []
            while i < len(lines) and not lines[i].strip().startswith(fence):
                doc.append(lines[i][indent:] if lines[i][:indent].strip() == '' else lines[i])
                i += 1
            i += 1
            if last_step is not None:
                last_step.docstring = '\n'.join(doc)
            continue
        if not line or line.startswith('#'):
            continue
        if line.startswith('@'):
            tags.extend(t for t in line.split() if t.startswith('@'))
            continue
        if line.startswith('Feature:'):
            feat.name = line[len('Feature:'):].strip()
            feat.tags, tags = tags, []
            continue
        if line.startswith('Background:'):
            mode, current, last_step = 'background', None, None
            continue
        kw = next((k for k in SCENARIO_KEYWORDS if line.startswith(k)), None)
        if kw:
            current = ScenarioDef(line[len(kw):].strip(), i, feat.tags + tags,
                                  kw in ('Scenario Outline:', 'Scenario Template:'))
            tags = []
            feat.scenarios.append(current)
            mode, last_step = 'scenario', None
            continue
        if line.startswith('Examples:') or line.startswith('Scenarios:'):
            if current is not None:
                current.examples.append([None, []])
            mode, tags = 'examples', []
            continue
        if line.startswith('|'):
            cells = split_cells(line)
            if mode == 'examples' and current is not None:
                ex = current.examples[-1]
                if ex[0] is None:
                    ex[0] = cells
                else:
                    ex[1].append(cells)
            elif last_step is not None:
                if last_step.table is None:
                    last_step.table = []
                last_step.table.append(cells)
            continue
        kw = next((k for k in STEP_KEYWORDS if line.startswith(k)), None)
        if kw and mode in ('background', 'scenario'):
            last_step = Step(kw.strip(), line[len(kw):].strip(), i)
            (feat.background if mode == 'background' else current.steps).append(last_step)
            continue
        # anything else is description text
    return feat


def substitute(text, row):
    if text is None:
        return None
    for k, v in row.items():
        text = text.replace(f'<{k}>', v)
    return text


def expand(feature):
    """Yields (name, example_label, line, tags, steps) for every runnable scenario."""
    for sc in feature.scenarios:
        if not sc.examples:  # a Scenario with Examples is an outline too (Gherkin 6+)
            yield sc.name, None, sc.line, sc.tags, feature.background + sc.steps
            continue
        for header, rows in sc.examples:
            for row in rows:
                values = dict(zip(header or [], row))
                steps = []
                for st in sc.steps:
                    new = Step(st.keyword, substitute(st.text, values), st.line)
                    if st.table is not None:
                        new.table = [[substitute(c, values) for c in r] for r in st.table]
                    new.docstring = substitute(st.docstring, values)
                    steps.append(new)
                label = ', '.join(f"{k}={v}" for k, v in values.items())
                yield sc.name, label, sc.line, sc.tags, feature.background + steps


def assign_kinds(steps):
    kind = 'given'
    for st in steps:
        kw = st.keyword
        if kw in ('Given', 'When', 'Then'):
            kind = kw.lower()
        st.kind = kind


# --------------------------------------------------------------------------------------------------
# Checks: the meaning of Nominatim's step definitions, reimplemented.

class StepFail(Exception):
    def __init__(self, category, detail):
        super().__init__(detail)
        self.category = category
        self.detail = detail


class Response:
    def __init__(self, endpoint, url, params, status, body, headers, fmt):
        self.endpoint, self.url, self.params = endpoint, url, params
        self.status, self.body, self.headers, self.fmt = status, body, headers, fmt

    @property
    def content_type(self):
        return self.headers.get('content-type')

    def error_message(self):
        try:
            err = json.loads(self.body).get('error')
            if isinstance(err, dict):
                return err.get('message', ''), err.get('parameter')
            return str(err), None
        except Exception:
            return trunc(self.body, 80), None


class Result:
    """Nominatim's APIResult: .meta (dict) and .result (dict for one result, list for many)."""

    def __init__(self, fmt, body):
        parser = getattr(self, '_parse_' + fmt, None)
        if parser is None:
            raise StepFail(f'no parser for format {fmt}', f'format {fmt} has no parser')
        self.meta = {}
        self.result = None
        parser(body)

    def is_simple(self):
        return not isinstance(self.result, list)

    def __len__(self):
        return 1 if self.is_simple() else len(self.result)

    def __str__(self):
        return json.dumps({'meta': self.meta, 'result': self.result}, ensure_ascii=False)

    def _parse_json(self, body):
        try:
            self.result = json.loads(body)
        except ValueError as ex:
            raise StepFail('body is not JSON', f'invalid JSON ({ex}): {trunc(body)}')

    def _parse_xml(self, body):
        try:
            root = ET.fromstring(body)
        except ET.ParseError as ex:
            raise StepFail('body is not XML', f'invalid XML ({ex}): {trunc(body)}')
        self.meta = dict(root.attrib)
        if root.tag == 'reversegeocode':
            self.result = {}
            for child in root:
                if child.tag == 'result':
                    self._xml_check('result' not in self.result and 'display_name' not in self.result,
                                    'more than one <result>')
                    self.result.update(child.attrib)
                    self.result['display_name'] = child.text
                elif child.tag == 'addressparts':
                    self.result['address'] = {s.tag: s.text for s in child}
                elif child.tag == 'extratags':
                    self.result['extratags'] = {t.attrib.get('key'): t.attrib.get('value')
                                                for t in child}
                elif child.tag == 'namedetails':
                    self.result['namedetails'] = {t.attrib.get('desc'): t.text for t in child}
                elif child.tag == 'geokml':
                    self.result['geokml'] = ET.tostring(child, encoding='unicode')
                elif child.tag == 'error':
                    self._xml_check(not self.result, '<error> beside a result')
                    self.result['error'] = child.text
                else:
                    raise StepFail('xml: unknown element', f'unknown XML element <{child.tag}>')
        elif root.tag == 'searchresults':
            self.result = []
            for child in root:
                self._xml_check(child.tag == 'place', f'<{child.tag}> in <searchresults>')
                res = dict(child.attrib)
                address = {}
                for sub in child:
                    if sub.tag == 'extratags':
                        res['extratags'] = {t.attrib.get('key'): t.attrib.get('value') for t in sub}
                    elif sub.tag == 'namedetails':
                        res['namedetails'] = {t.attrib.get('desc'): t.text for t in sub}
                    elif sub.tag == 'geokml':
                        res['geokml'] = ET.tostring(sub, encoding='utf-8')
                    else:
                        address[sub.tag] = sub.text
                if address:
                    res['address'] = address
                self.result.append(res)
        elif root.tag == 'error':
            self.result = {'error': {s.tag: s.text for s in root}}
        # any other root element: valid XML, but no result (later checks on it fail)

    @staticmethod
    def _xml_check(cond, what):
        if not cond:
            raise StepFail('xml: unexpected structure', what)

    def _parse_geojson(self, body):
        try:
            doc = json.loads(body)
        except ValueError as ex:
            raise StepFail('body is not JSON', f'invalid JSON ({ex}): {trunc(body)}')
        if not isinstance(doc, dict) or doc.get('type') != 'FeatureCollection' \
                or not isinstance(doc.get('features'), list):
            raise StepFail('geojson: not a FeatureCollection', f'not a FeatureCollection: {trunc(body)}')
        self.meta = {k: v for k, v in doc.items() if k not in ('type', 'features')}
        self.result = []
        for obj in doc['features']:
            if not isinstance(obj, dict) or obj.get('type') != 'Feature' \
                    or not isinstance(obj.get('properties'), dict):
                raise StepFail('geojson: bad Feature', f'bad feature {trunc(json.dumps(obj))}')
            res = obj['properties']
            if 'geojson' in res:
                raise StepFail('geojson: properties hold "geojson"', 'properties has geojson')
            res['geojson'] = obj.get('geometry')
            if 'bbox' in obj:
                if 'boundingbox' in res:
                    raise StepFail('geojson: boundingbox beside bbox', 'both bbox and boundingbox')
                b = obj['bbox']
                res['boundingbox'] = [b[1], b[3], b[0], b[2]]
            self.result.append(res)

    def _parse_geocodejson(self, body):
        self._parse_geojson(body)
        if set(self.meta.keys()) != {'geocoding'} or not isinstance(self.meta['geocoding'], dict):
            raise StepFail('geocodejson: top level keys',
                           f"top-level keys besides type/features must be exactly ['geocoding'], "
                           f"got {sorted(self.meta.keys())}")
        self.meta = self.meta['geocoding']
        for r in self.result:
            if set(r.keys()) != {'geocoding', 'geojson'}:
                extra = sorted(set(r.keys()) - {'geocoding', 'geojson'})
                missing = sorted({'geocoding'} - set(r.keys()))
                what = []
                if missing:
                    what.append('no properties.geocoding')
                if extra:
                    what.append('extra feature keys ' + ','.join(
                        'bbox' if k == 'boundingbox' else 'properties.' + k for k in extra[:4]))
                raise StepFail('geocodejson feature shape: ' + '; '.join(what),
                               f"feature keys {sorted(r.keys())}")
            inner = r.pop('geocoding')
            if not isinstance(inner, dict) or 'geojson' in inner:
                raise StepFail('geocodejson feature shape: bad geocoding object', trunc(inner))
            r.update(inner)


COMPARATORS = {
    'exactly': lambda exp, act: exp == act,
    'more than': lambda exp, act: act > exp,
    'less than': lambda exp, act: act < exp,
}


def within_box(value, expect):
    coord = [float(x) for x in expect.split(',')]
    if isinstance(value, str):
        value = value[6:-1].split(' ') if value.startswith('POINT') else value.split(',')
    value = list(map(float, value))
    if len(value) == 2:
        return coord[0] <= value[0] <= coord[2] and coord[1] <= value[1] <= coord[3]
    if len(value) == 4:
        return value[0] >= coord[0] and value[1] <= coord[1] \
            and value[2] >= coord[2] and value[3] <= coord[3]
    raise ValueError('not a coordinate or bbox')


def compare_set(val, exp):
    if val is None:
        return False
    if isinstance(val, str) and val.startswith('{'):
        val = [v.strip() for v in val[1:-1].split(',')]
    return set(val) == {s.strip().strip("'\"") for s in exp.split(',')}


COMPARE = {
    None: lambda val, exp: str(val) == exp,
    'i': lambda val, exp: str(val).lower() == exp.lower(),
    'fm': lambda val, exp: re.fullmatch(exp, val) is not None,
    'dict': lambda val, exp: val is None if exp == '-' else val == ast.literal_eval('{' + exp + '}'),
    'ints': lambda val, exp: val is None if exp == '-' else val == [int(i) for i in exp.split(',')],
    'set': lambda val, exp: val is None if exp == '-' else compare_set(val, exp),
    'in_box': within_box,
}

OSM_TYPE = {'node': 'n', 'way': 'w', 'relation': 'r', 'N': 'n', 'W': 'w', 'R': 'r'}


def _pt_close(p1, p2):
    return math.isclose(p1[0], p2[0], abs_tol=1e-07) and math.isclose(p1[1], p2[1], abs_tol=1e-07)


def compare_wkt(value, expected):
    m = re.fullmatch(r'(POINT)\(([0-9. -]*)\)', value) \
        or re.fullmatch(r'(LINESTRING)\(([0-9,. -]*)\)', value) \
        or re.fullmatch(r'(POLYGON)\(\(([0-9,. -]*)\)\)', value)
    if not m:
        return False
    got = [list(map(float, pt.split(' ', 1))) for pt in map(str.strip, m[2].split(','))]

    def point(p):
        p = p.strip()
        if ' ' not in p:
            raise StepFail('unsupported: grid point in !wkt', 'grid node reference without a grid')
        return list(map(float, p.split(' ', 1)))

    if expected.startswith('country:'):
        raise StepFail('unsupported: country alias in !wkt', 'country alias needs geometry aliases')
    if ',' not in expected:
        return m[1] == 'POINT' and _pt_close(got[0], point(expected))
    if '(' not in expected:
        return m[1] == 'LINESTRING' and all(_pt_close(a, b) for a, b in
                                             zip(got, (point(p) for p in expected.split(','))))
    if m[1] != 'POLYGON':
        return False
    exp = [point(p) for p in expected[1:-1].split(',')]
    for line in (exp[:-1], exp[-1:0:-1]):
        for i in range(len(line)):
            if all(_pt_close(a, b) for a, b in zip(got, line[i:] + line[:i])):
                return True
    return False


def norm_key(key):
    return re.sub(r'\+\d+(?=\+|$)', '+N', key)


def attr(obj, key):
    """Nominatim's ResultAttr: returns (value, fmt, key-without-format)."""
    if '!' in key:
        path, fmt = key.rsplit('!', 1)
    else:
        path, fmt = key, None
    if path == 'object':
        for k in ('osm_id', 'osm_type'):
            if not isinstance(obj, dict) or k not in obj:
                raise StepFail(f'field missing: {k}', f'no {k} for "object" in {trunc(json.dumps(obj, ensure_ascii=False))}')
        t = OSM_TYPE.get(obj['osm_type'])
        if t is None:
            raise StepFail('value differs: osm_type', f"osm_type {obj['osm_type']!r} is not node/way/relation/N/W/R")
        return t + str(obj['osm_id']), 'i', path
    sub = obj
    done = ''
    for part in path.split('+'):
        done += f'[{part}]'
        if isinstance(sub, collections.abc.Sequence) and part.isdigit():
            idx = int(part)
            if idx >= len(sub):
                raise StepFail(f'field missing: {norm_key(path)}',
                               f'index out of bounds {done} in {trunc(json.dumps(obj, ensure_ascii=False, default=str))}')
            sub = sub[idx]
        else:
            try:
                present = part in sub
            except TypeError:
                present = False
            if not present:
                level = norm_key('+'.join(path.split('+')[:done.count('[')]))
                raise StepFail(f'field missing: {level}',
                               f'missing {done} in {trunc(json.dumps(obj, ensure_ascii=False, default=str), 300)}')
            try:
                sub = sub[part]
            except (TypeError, KeyError, IndexError):
                raise StepFail(f'field missing: {norm_key(path)}', f'{done} not addressable')
    return sub, fmt, path


def attr_equals(obj, key, expected):
    """ResultAttr(obj, key) == expected; raises StepFail for missing fields."""
    value, fmt, path = attr(obj, key)
    other = expected.replace('\\\\', '\\')
    if path == 'categories' and fmt is None and isinstance(value, str) and value.startswith('{'):
        return {v.strip() for v in value[1:-1].split(',')} == \
            {s.strip().strip("'\"") for s in other.split(',')}
    try:
        if fmt in COMPARE:
            return bool(COMPARE[fmt](value, other))
        if fmt.startswith(':'):
            return other == ('{' + fmt + '}').format(value)
        if fmt == 'wkt':
            return compare_wkt(value, other)
    except StepFail:
        raise
    except Exception as ex:
        raise StepFail(f'value differs: {norm_key(path)}' + (f' (!{fmt})' if fmt else ''),
                       f'{key}: cannot compare {trunc(repr(value), 120)} with {other!r}: '
                       f'{type(ex).__name__}: {ex}')
    raise StepFail(f'unsupported value marker !{fmt}', f'unknown format string {fmt!r}')


def value_category(path, fmt, value, expected):
    key = norm_key(path)
    if key == 'display_name' or key == 'label':
        if fmt:
            return f'value differs: {key} (!{fmt})'
        tokens = lambda t: set(w for w in re.split(r'[,\s]+', str(t)) if w)
        if tokens(value) <= tokens(expected):
            return f'value differs: {key} (fewer or reordered parts, same words)'
        return f'value differs: {key} (other place or other names)'
    if key in ('osm_type', 'osm_id', 'object', 'category', 'class', 'type', 'osm_key', 'osm_value'):
        return f'value differs: {key}'
    return f'value differs: {key}' + (f' (!{fmt})' if fmt else '')


def check_pairs(obj, pairs, prefix=''):
    for k, v in pairs:
        key = prefix + k
        if not attr_equals(obj, key, v):
            value, fmt, path = attr(obj, key)
            raise StepFail(value_category(path, fmt, value, v),
                           f'{key}: expected {trunc(v, 120)!r}, got {trunc(repr(value), 160)}')


def table_pairs(table):
    if table is None:
        raise StepFail('step has no data table', 'step needs a data table (TypeError in Nominatim)')
    if table[0] == ['param', 'value']:
        return [tuple(r[:2]) for r in table[1:]]
    if len(table) < 2:
        raise StepFail('step has no data table', 'data table has no value row')
    return list(zip(table[0], table[1]))


def strlist(text):
    return [s.strip() for s in text.split(',')]


# --------------------------------------------------------------------------------------------------
# Running a scenario.

class Context:
    def __init__(self, runner):
        self.runner = runner
        self.headers = {}
        self.response = None
        self.result = None
        self.base = runner.server.base
        self.extra_server = None
        self.last_endpoint, self.last_params = None, {}

    def close(self):
        if self.extra_server:
            self.extra_server.stop()


def need_result(ctx):
    if ctx.result is None:
        raise StepFail('no parsed result (an earlier step did not produce one)',
                       'no nominatim_result fixture')
    if ctx.result.result is None:
        raise StepFail('xml: unknown root element (no result)', 'XML root not one of '
                       'reversegeocode, searchresults, error')
    return ctx.result


def need_simple(res, what):
    if not res.is_simple():
        raise StepFail('one result expected, got a list',
                       f'{what}: expected a single result, got a list of {len(res.result)}')


def need_list(res, what):
    if res.is_simple():
        raise StepFail('a list of results expected, got one object',
                       f'{what}: expected a list of results, got {trunc(json.dumps(res.result, ensure_ascii=False, default=str))}')


def http_status_category(resp, want):
    ep = resp.endpoint
    got = resp.status
    if got == 404 and 'no such endpoint' in resp.body:
        return f'endpoint /{ep} missing (404)'
    if got == 0:
        return f'request failed on /{ep}'
    msg, param = resp.error_message()
    fmt = resp.params.get('format')
    if got == 400 and want == 200:
        if param == 'format' or (fmt and f"format '{fmt}'" in msg):
            return f"format={fmt or DEFAULT_FORMAT.get(ep, '?') + ' (default)'} refused (400) on /{ep}"
        if param in ('lat', 'lon'):
            param = 'lat/lon'
        return f'HTTP 400 (want 200) on /{ep}: parameter {param or "?"}'
    if want == 400 and got == 200:
        keys = [k for k in resp.params if k not in ('q', 'lat', 'lon', 'format')]
        if resp.params.get('format') and resp.params['format'] not in KNOWN_FORMATS:
            keys.append('format')
        if not keys:
            keys = [k for k in resp.params if k in ('lat', 'lon')]
        return f'bad input accepted (200, want 400) on /{ep}: {",".join(keys) or "?"}'
    return f'HTTP {got} (want {want}) on /{ep}'


def do_request(ctx, endpoint, params, fmt_label):
    ctx.last_endpoint, ctx.last_params = endpoint, params
    url = f"{ctx.base}/{endpoint}"
    query = urllib.parse.urlencode(params, quote_via=urllib.parse.quote)
    if query:
        url += '?' + query
    req = urllib.request.Request(url, headers=ctx.headers)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            status, raw, headers = r.status, r.read(), r.headers
    except urllib.error.HTTPError as e:
        status, raw, headers = e.code, e.read(), e.headers
    except Exception as ex:
        return Response(endpoint, url, params, 0, f'{type(ex).__name__}: {ex}', {}, fmt_label)
    hdrs = {k.lower(): v for k, v in headers.items()}
    charset = 'utf-8'
    m = re.search(r'charset=([\w-]+)', hdrs.get('content-type', ''))
    if m:
        charset = m.group(1)
    try:
        body = raw.decode(charset, errors='replace')
    except LookupError:
        body = raw.decode('utf-8', errors='replace')
    return Response(endpoint, url, params, status, body, hdrs, fmt_label)


def run_endpoint(ctx, endpoint, base, table, fmt):
    params = dict(base)
    if fmt:
        params['format'] = fmt.strip()
    if table:
        if table[0] == ['param', 'value']:
            params.update((r[0], r[1]) for r in table[1:])
        else:
            params.update(zip(table[0], table[1]))
    label = params.get('format') or f"default({DEFAULT_FORMAT.get(endpoint, '?')})"
    return do_request(ctx, endpoint, params, label)


RELAX_CONTENT_TYPE = False  # --ignore-content-type (an estimate, not the faithful measure)


def check_content_type(resp, fmt):
    want = CONTENT_TYPES.get(fmt)
    if want is None:
        raise StepFail(f'unknown output format {fmt} in step', f'no content type for {fmt}')
    got = resp.content_type
    if got != want:
        if resp.status == 400 and resp.error_message()[1] == 'format':
            cat = http_status_category(resp, 200)
        elif resp.endpoint == 'reverse' and 'format' not in resp.params \
                and got and got.startswith('application/geo+json'):
            cat = '/reverse without format= answers Photon GeoJSON (Nominatim default: xml)'
        elif RELAX_CONTENT_TYPE and resp.status < 400:
            return
        else:
            cat = f'Content-Type for "valid {fmt}" (asked {resp.fmt}): got {got}'
        raise StepFail(cat,
                       f'/{resp.endpoint} {resp.fmt} [HTTP {resp.status}]: Content-Type {got!r}, '
                       f'want {want!r}; body {trunc(resp.body, 100)}')


# Step definitions: (kind, regex, function(ctx, step, match)).
STEPS = []


def step(kind, pattern):
    def deco(fn):
        STEPS.append((kind, re.compile(pattern), fn))
        return fn
    return deco


@step('given', r'the HTTP header')
def given_header(ctx, st, m):
    if not st.table or len(st.table) < 2:
        raise StepFail('step has no data table', 'header table missing')
    ctx.headers.update(zip(st.table[0], st.table[1]))


@step('given', r'an unknown database')
def given_unknown_db(ctx, st, m):
    missing = ctx.runner.cache / 'no-such-database.sqlite'
    # Nominatim's server runs without its database; geodb's does so with --wait (otherwise a missing file
    # stops it at once).
    srv = Server(ctx.runner.geodb, missing, ctx.runner.cache / 'serve-unknown-db.log', extra_args=('--wait',))
    if srv.error:
        raise StepFail('unknown database: geodb serve does not start (Nominatim answers /status)',
                       srv.error)
    ctx.extra_server = srv
    ctx.base = srv.base


@step('when', r'sending v1/(?P<endpoint>\S+)(?: with format (?P<fmt>\S+))?')
def when_sending(ctx, st, m):
    ctx.response = run_endpoint(ctx, m['endpoint'], {}, st.table, m['fmt'])


def _convenience_checks(ctx, resp, what):
    if resp.status != 200:
        raise StepFail(http_status_category(resp, 200),
                       f'{what}: HTTP {resp.status}, want 200: {trunc(resp.body)}')
    if resp.content_type != 'application/json; charset=utf-8' and not RELAX_CONTENT_TYPE:
        raise StepFail(f'Content-Type for "valid json" (asked jsonv2): got {resp.content_type}',
                       f'{what}: Content-Type {resp.content_type!r}')
    return Result('json', resp.body)


@step('when', r'reverse geocoding (?P<lat>[\d.-]*),(?P<lon>[\d.-]*)')
def when_reverse(ctx, st, m):
    try:
        base = {'lat': str(float(m['lat'])), 'lon': str(float(m['lon']))}
    except ValueError:
        raise StepFail('step arguments not numbers', st.text)
    resp = run_endpoint(ctx, 'reverse', base, st.table, 'jsonv2')
    ctx.response = None
    res = _convenience_checks(ctx, resp, 'reverse geocoding')
    need_simple(res, 'reverse geocoding')
    if 'error' in res.result and 'lat' not in res.result:
        raise StepFail('/reverse found nothing ("Unable to geocode")',
                       f'reverse geocoding {m["lat"]},{m["lon"]}: {trunc(str(res))}')
    for k in ('lat', 'lon'):
        if not isinstance(res.result.get(k), str):
            raise StepFail(f'reverse jsonv2: {k} not a string',
                           f'{k} = {res.result.get(k)!r} in {trunc(str(res))}')
    res.result['centroid'] = f"POINT({res.result['lon']} {res.result['lat']})"
    ctx.result = res


@step('when', r'geocoding(?: "(?P<query>.*)")?')
def when_geocoding(ctx, st, m):
    base = {'addressdetails': '1'}
    if m['query']:
        base['q'] = m['query']
    resp = run_endpoint(ctx, 'search', base, st.table, 'jsonv2')
    ctx.response = None
    res = _convenience_checks(ctx, resp, 'geocoding')
    need_list(res, 'geocoding')
    for r in res.result:
        for k in ('lat', 'lon'):
            if not isinstance(r.get(k), str):
                raise StepFail(f'search jsonv2: {k} not a string', f'{k} = {r.get(k)!r}')
        r['centroid'] = f"POINT({r['lon']} {r['lat']})"
    ctx.result = res


def need_response(ctx):
    if ctx.response is None:
        raise StepFail('no HTTP response to check (earlier step)', 'no api_response fixture')
    return ctx.response


@step('then', r'a HTTP (?P<status>\d+) is returned')
def then_status(ctx, st, m):
    resp = need_response(ctx)
    want = int(m['status'])
    if resp.status != want:
        raise StepFail(http_status_category(resp, want),
                       f'/{resp.endpoint} {resp.fmt}: HTTP {resp.status}, want {want}: '
                       f'{trunc(resp.body, 140)}')


@step('then', r'the page content equals "(?P<content>.*)"')
def then_page_content(ctx, st, m):
    resp = need_response(ctx)
    if resp.body != m['content']:
        raise StepFail(f'page content differs on /{resp.endpoint}',
                       f'body {trunc(resp.body)!r}, want {m["content"]!r}')


@step('then', r'the result is valid html')
def then_valid_html(ctx, st, m):
    resp = need_response(ctx)
    if resp.content_type != CONTENT_TYPES['html']:
        raise StepFail(f'debug=1 HTML page missing on /{resp.endpoint} (got {resp.content_type})',
                       f'Content-Type {resp.content_type!r}, want text/html; charset=utf-8')
    try:
        tree = ET.fromstring(resp.body)
    except ET.ParseError as ex:
        raise StepFail('debug HTML is not well-formed XML', f'{ex}: {trunc(resp.body)}')
    if tree.tag != 'html' or tree.find('./body') is None:
        raise StepFail('debug HTML: no <html>/<body>', f'root <{tree.tag}>')
    if tree.find('./body').find('.//script') is not None:
        raise StepFail('debug HTML contains <script>', 'script element in body')


@step('then', r'the result is valid (?P<fmt>\S+)(?: with (?P<num>\d+) results?)?')
def then_valid(ctx, st, m):
    resp = need_response(ctx)
    fmt = m['fmt']
    check_content_type(resp, fmt)
    res = Result(fmt, resp.body)
    if m['num'] and len(res) != int(m['num']):
        raise StepFail(f'result count differs ("valid {fmt} with {m["num"]} result")',
                       f'{len(res)} results, want {m["num"]}')
    ctx.result = res


@step('then', r'(?P<op>[a-z ]+) (?P<num>\d+) results? (?:are|is) returned')
def then_count(ctx, st, m):
    res = need_result(ctx)
    need_list(res, 'result count')
    cmp = COMPARATORS.get(m['op'])
    if cmp is None:
        raise StepFail(f'unknown comparison "{m["op"]}"', st.text)
    n = int(m['num'])
    if not cmp(n, len(res)):
        if m['op'] == 'exactly' and n == 0:
            cat = 'result count differs: results where none expected'
        elif len(res) == 0:
            cat = 'result count differs: no results'
        else:
            cat = f'result count differs: {m["op"]} N'
        raise StepFail(cat, f'{len(res)} results, want {m["op"]} {n}')


@step('then', r'the result metadata contains')
def then_meta_contains(ctx, st, m):
    res = need_result(ctx)
    try:
        check_pairs(res.meta, table_pairs(st.table))
    except StepFail as f:
        f.category = 'metadata ' + f.category
        raise


@step('then', r'the result metadata has no attributes (?P<attributes>.*)')
def then_meta_absent(ctx, st, m):
    res = need_result(ctx)
    for a in strlist(m['attributes']):
        if a in res.meta:
            raise StepFail(f'metadata attribute present (should be absent): {a}',
                           f'{a} in {trunc(json.dumps(res.meta, ensure_ascii=False))}')


@step('then', r'the result contains(?: in field (?P<field>\S+))?')
def then_result_contains(ctx, st, m):
    res = need_result(ctx)
    need_simple(res, 'the result contains')
    check_pairs(res.result, table_pairs(st.table), m['field'] + '+' if m['field'] else '')


def _has(obj, attrs, present, scope):
    for a in attrs:
        if (a in obj) != present:
            if present:
                raise StepFail(f'attribute missing: {a}',
                               f'{scope}: no {a} in {trunc(json.dumps(obj, ensure_ascii=False, default=str), 200)}')
            raise StepFail(f'attribute present (should be absent): {a}',
                           f'{scope}: {a} = {trunc(repr(obj[a]), 120)}')


@step('then', r'the result has attributes (?P<attributes>.*)')
def then_has_attrs(ctx, st, m):
    res = need_result(ctx)
    need_simple(res, 'the result has attributes')
    _has(res.result, strlist(m['attributes']), True, 'result')


@step('then', r'the result has no attributes (?P<attributes>.*)')
def then_has_no_attrs(ctx, st, m):
    res = need_result(ctx)
    need_simple(res, 'the result has no attributes')
    _has(res.result, strlist(m['attributes']), False, 'result')


@step('then', r'the result contains array field (?P<field>\S+) where element (?P<num>\d+) contains')
def then_array_field(ctx, st, m):
    res = need_result(ctx)
    need_simple(res, 'array field')
    check_pairs(res.result, table_pairs(st.table), f"{m['field']}+{m['num']}+")


@step('then', r'the result set contains(?P<exact> exactly)?')
def then_result_set(ctx, st, m):
    res = need_result(ctx)
    need_list(res, 'the result set contains')
    if not st.table:
        raise StepFail('step has no data table', 'result set table missing')
    left = list(range(len(res.result)))
    header = st.table[0]
    for row in st.table[1:]:
        for idx in left:
            if all(attr_equals(res.result[idx], k, v) for k, v in zip(header, row)):
                left.remove(idx)
                break
        else:
            raise StepFail(f'expected row not in results ({",".join(norm_key(h) for h in header)})',
                           f'row {row} not found in {trunc(str(res), 300)}')
    if m['exact'] and left:
        raise StepFail('result set has unexpected extra results',
                       f'{len(left)} unexpected: {trunc(json.dumps([res.result[i] for i in left], ensure_ascii=False, default=str))}')


@step('then', r'all results have (?P<no>no )?attributes (?P<attributes>.*)')
def then_all_have(ctx, st, m):
    res = need_result(ctx)
    need_list(res, 'all results have attributes')
    if len(res) == 0:
        raise StepFail('no results (all results ... needs some)', 'no results')
    for i, r in enumerate(res.result):
        _has(r, strlist(m['attributes']), not m['no'], f'result {i}')


@step('then', r'all results contain(?: in field (?P<field>\S+))?')
def then_all_contain(ctx, st, m):
    res = need_result(ctx)
    need_list(res, 'all results contain')
    if len(res) == 0:
        raise StepFail('no results (all results ... needs some)', 'no results')
    prefix = m['field'] + '+' if m['field'] else ''
    for k, v in table_pairs(st.table):
        for i, r in enumerate(res.result):
            try:
                check_pairs(r, [(k, v)], prefix)
            except StepFail as f:
                f.detail = f'result {i}: {f.detail}'
                raise


@step('then', r'result (?P<num>\d+) contains(?: in field (?P<field>\S+))?')
def then_nth_contains(ctx, st, m):
    res = need_result(ctx)
    need_list(res, f'result {m["num"]} contains')
    n = int(m['num'])
    if len(res) <= n:
        raise StepFail('no results' if len(res) == 0 else f'fewer results than result {n} needs',
                       f'{len(res)} results, need result {n}')
    check_pairs(res.result[n], table_pairs(st.table), m['field'] + '+' if m['field'] else '')


def match_step(st):
    for kind, rx, fn in STEPS:
        if kind == st.kind:
            mt = rx.fullmatch(st.text)
            if mt:
                return fn, mt
    return None, None


class Runner:
    def __init__(self, geodb, server, cache):
        self.geodb, self.server, self.cache = geodb, server, cache

    def run(self, steps):
        """Returns (status, failing step text, category, reason)."""
        assign_kinds(steps)
        matched = []
        for st in steps:
            fn, mt = match_step(st)
            if fn is None:
                return 'unsupported', f'{st.keyword} {st.text}', 'unsupported step', \
                    f'no step definition for "{st.kind} {st.text}"'
            matched.append((st, fn, mt))
        ctx = Context(self)
        try:
            for st, fn, mt in matched:
                try:
                    fn(ctx, st, mt)
                except StepFail as f:
                    if f.category == 'field missing: address' and ctx.last_endpoint == 'reverse' \
                            and 'addressdetails' not in ctx.last_params:
                        f.category = 'no address on /reverse without addressdetails= ' \
                            '(Nominatim default: 1)'
                    return 'failed', f'{st.keyword} {st.text}', f.category, f.detail
                except Exception as ex:  # a bug here or an answer nobody expected
                    return 'failed', f'{st.keyword} {st.text}', f'exception {type(ex).__name__}', \
                        f'{type(ex).__name__}: {trunc(ex, 200)}'
        finally:
            ctx.close()
        return 'passed', None, None, None


# --------------------------------------------------------------------------------------------------

def default_geodb():
    if os.environ.get('GEODB'):
        return os.environ['GEODB']
    for p in (REPO / '.build' / 'release' / 'geodb', REPO / '.build' / 'debug' / 'geodb'):
        if p.is_file():
            return str(p)
    return shutil.which('geodb')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--geodb', default=default_geodb(),
                    help='geodb binary (default: $GEODB, .build/release/geodb, .build/debug/geodb, PATH)')
    ap.add_argument('--nominatim', metavar='DIR',
                    help='Nominatim checkout or bare git dir (default: clone into .build/nominatim)')
    ap.add_argument('--data', metavar='DIR',
                    help=f'folder with {DATA_PBF} and {DATA_OSM} (default: the checkout\'s '
                         'test/testdb, else ../shared/data beside the repository)')
    ap.add_argument('--filter', metavar='SUBSTRING',
                    help='run only scenarios whose feature path, name or example row contains it '
                         '(case-insensitive)')
    ap.add_argument('--verbose', '-v', action='store_true',
                    help='print the first failing step of each failed scenario')
    ap.add_argument('--json', metavar='OUT', help='write per-scenario results as JSON')
    ap.add_argument('--min-pass', type=float, metavar='PERCENT',
                    help='exit 1 when the pass rate is below PERCENT')
    ap.add_argument('--top', type=int, default=25, help='failure categories to print (25)')
    ap.add_argument('--rebuild', action='store_true', help='re-import the test database')
    ap.add_argument('--ignore-content-type', action='store_true',
                    help='what-if: accept any Content-Type on successful answers, to see what fails '
                         'next (not the faithful measure; said so in the output)')
    args = ap.parse_args()
    global RELAX_CONTENT_TYPE
    RELAX_CONTENT_TYPE = args.ignore_content_type

    if not args.geodb or not Path(args.geodb).is_file():
        die('no geodb binary: give --geodb BIN (or build one)')
    geodb = Path(args.geodb).resolve()
    checkout = get_checkout(args.nominatim)
    cache = REPO / '.build' / 'nominatim-suite'
    cache.mkdir(parents=True, exist_ok=True)
    inputs, source = find_inputs(args, checkout, cache)
    inputs.append(REPO / 'SampleData' / 'timezones.geojson')
    inputs.append(tiger_input(checkout, cache))
    t0 = time.time()
    db, built = build_db(geodb, inputs, cache, args.rebuild)
    print(f"Nominatim: {checkout.describe()}")
    print(f"geodb:     {geodb}")
    print(f"data:      {source} → {db} ({'imported' if built else 'cached'}, "
          f"{time.time() - t0:.1f} s)")

    features = []
    for rel in checkout.list(FEATURE_ROOT):
        if rel.endswith('.feature'):
            features.append(parse_feature(rel, checkout.read(rel)))
    if not features:
        die(f'no feature files under {FEATURE_ROOT}')

    server = Server(geodb, db, cache / 'serve.log')
    if server.error:
        die(server.error)
    print(f"server:    {server.base}")
    if args.ignore_content_type:
        print("WHAT-IF RUN: Content-Type mismatches on successful answers are ignored; "
              "this is not the faithful pass rate")
    print()
    runner = Runner(geodb, server, cache)
    results = []
    try:
        for feat in features:
            short = feat.path[len(FEATURE_ROOT) + 1:]
            for name, label, line, tags, steps in expand(feat):
                full = name + (f' [{label}]' if label else '')
                if args.filter and args.filter.lower() not in f'{short} {full}'.lower():
                    continue
                if '@skip' in tags:
                    status, stp, cat, reason = 'skipped', None, None, '@skip'
                else:
                    status, stp, cat, reason = runner.run(steps)
                results.append({'feature': short, 'scenario': full, 'line': line,
                                'status': status, 'step': stp, 'category': cat, 'reason': reason})
    finally:
        server.stop()

    report(results, args)
    if args.json:
        with open(args.json, 'w', encoding='utf-8') as f:
            json.dump(results, f, ensure_ascii=False, indent=1)
        print(f"\nper-scenario results written to {args.json}")
    counted = [r for r in results if r['status'] != 'skipped']
    rate = 100.0 * sum(r['status'] == 'passed' for r in counted) / len(counted) if counted else 0.0
    if args.min_pass is not None and rate < args.min_pass:
        print(f"pass rate {rate:.1f} % is below --min-pass {args.min_pass}")
        return 1
    return 0


BROAD_CLASSES = [
    (r'^endpoint .* missing', 'endpoint missing'),
    (r'refused \(400\)|answers Photon|HTML page missing|^xml:|body is not XML',
     'output format not served (xml, debug html, Nominatim default format)'),
    (r'^Content-Type', 'Content-Type differs (Nominatim: application/json; charset=utf-8)'),
    (r'^bad input accepted', 'invalid input answered 200 (Nominatim: 400)'),
    (r'^HTTP 400 \(want 200\)', 'valid input refused with 400'),
    (r'^geocodejson|^geojson', 'GeoJSON/GeocodeJSON document shape'),
    (r'^no address on /reverse|^attribute missing|^field missing: (?!address\+)'
     r'|^metadata field missing|^attribute present|^metadata attribute present',
     'fields missing or present in answers (options, defaults)'),
    (r'error\+message|^page content|^unknown database|data_updated',
     'error texts, status page'),
    (r'^value differs|^field missing: address\+|^no results|^result count|^expected row'
     r'|^fewer results|^result set|^/reverse found nothing|^one result|^a list',
     'answers differ (other place, ranking, address composition or data)'),
]


def broad_class(category):
    for rx, name in BROAD_CLASSES:
        if re.search(rx, category or ''):
            return name
    return 'other'


def report(results, args):
    by_feat = collections.OrderedDict()
    for r in results:
        by_feat.setdefault(r['feature'], []).append(r)
    w = max([len(f) for f in by_feat] + [10])
    print(f"{'feature':<{w}}  scenarios  passed  failed  unsupported  skipped")
    tot = collections.Counter()
    for feat, rs in by_feat.items():
        c = collections.Counter(r['status'] for r in rs)
        n = len(rs) - c['skipped']
        tot.update(c)
        tot['n'] += n
        print(f"{feat:<{w}}  {n:9}  {c['passed']:6}  {c['failed']:6}  {c['unsupported']:11}  "
              f"{c['skipped']:7}")
    n = tot['n']
    rate = 100.0 * tot['passed'] / n if n else 0.0
    print(f"{'TOTAL':<{w}}  {n:9}  {tot['passed']:6}  {tot['failed']:6}  {tot['unsupported']:11}  "
          f"{tot['skipped']:7}")
    print(f"\npass rate: {tot['passed']}/{n} = {rate:.1f} %")

    if args.verbose:
        print('\nFailed scenarios (first failing step):')
        for r in results:
            if r['status'] in ('failed', 'unsupported'):
                print(f"- {r['feature']}:{r['line']} {r['scenario']}\n    step: {r['step']}\n"
                      f"    [{r['category']}] {trunc(r['reason'], 400)}")

    cats = collections.Counter(r['category'] for r in results if r['status'] == 'failed')
    if cats:
        print(f"\nTop failure categories (first failing step of each failed scenario):")
        for cat, k in cats.most_common(args.top):
            print(f"  {k:4}  {cat}")
        if len(cats) > args.top:
            rest = sum(k for c, k in cats.most_common()[args.top:])
            print(f"  {rest:4}  … {len(cats) - args.top} more categories")
        broad = collections.Counter(broad_class(r['category'])
                                    for r in results if r['status'] == 'failed')
        print('\nThe same, in broad classes:')
        for cat, k in broad.most_common():
            print(f"  {k:4}  {cat}")
    unsupported = collections.Counter(r['step'] for r in results if r['status'] == 'unsupported')
    if unsupported:
        print('\nUnsupported steps (add a definition to count these scenarios):')
        for s, k in unsupported.most_common():
            print(f"  {k:4}  {s}")


if __name__ == '__main__':
    sys.exit(main())
