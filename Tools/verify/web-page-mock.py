#!/usr/bin/env python3
"""A stand-in for `geodb serve` with a few canned Helsinki places, to work on the web page without a database.

Serves Sources/GeoDBServer/Web/index.html at / and its Leaflet at /leaflet/ (read on each request, so edits show
on reload) and the /v1 endpoints the page calls, with the JSON shapes of the real API. Stdlib only.

    Tools/verify/web-page-mock.py --port 8765            # then open http://127.0.0.1:8765/
    Tools/verify/test-web-page.py --url http://127.0.0.1:8765 --screenshot /tmp/page.png

With --api http://127.0.0.1:8080 it forwards /v1 to a running `geodb serve` instead of the canned answers: the
page as it is on disk, on real data, without rebuilding the binary that embeds it.
"""
import argparse
import json
import math
import sys
import urllib.error
import urllib.request
from http.server import ThreadingHTTPServer, BaseHTTPRequestHandler
from pathlib import Path
from urllib.parse import urlparse, parse_qs

WEB = Path(__file__).resolve().parents[2] / "Sources" / "GeoDBServer" / "Web"
# What the binary serves from Web/ (WebResources): path → file and type.
FILES = {"/": ("index.html", "text/html; charset=utf-8"), "/index.html": ("index.html", "text/html; charset=utf-8"),
         "/leaflet/leaflet.js": ("leaflet/leaflet.js", "text/javascript; charset=utf-8"),
         "/leaflet/leaflet.css": ("leaflet/leaflet.css", "text/css; charset=utf-8")}
EXTENT = {"min_lat": 60.160, "min_lon": 24.930, "max_lat": 60.176, "max_lon": 24.965}


def place(id, source_id, kind, name, display_name, lat, lon, category_id=None, category=None, address=None,
          tags=None, geometry=None):
    p = {"id": id, "source_id": source_id, "kind": kind, "name": name, "display_name": display_name,
         "lat": lat, "lon": lon, "address": address or {}, "tags": tags or {}}
    if category_id:
        p["category_id"], p["category"] = category_id, category
    return p, geometry


def square(min_lon, min_lat, max_lon, max_lat):
    return [[min_lon, min_lat], [max_lon, min_lat], [max_lon, max_lat], [min_lon, max_lat], [min_lon, min_lat]]


PLACES = dict((p["id"], (p, g)) for p, g in [
    place(1, "w45", "street", "Aleksanterinkatu", "Aleksanterinkatu, 00170 Helsinki", 60.1689, 24.9466,
          address={"postcode": "00170", "city": "Helsinki"},
          geometry={"type": "LineString", "coordinates": [[24.9406, 60.1686], [24.9445, 60.1688], [24.9466, 60.1689],
                                                          [24.9500, 60.1691], [24.9523, 60.1693]]}),
    place(2, "n1001", "poi", "Café Engel", "Café Engel, Aleksanterinkatu 26, 00170 Helsinki", 60.1694, 24.9519,
          "cafe", "amenity=cafe", {"street": "Aleksanterinkatu", "housenumber": "26", "city": "Helsinki"},
          {"opening_hours": "Mo-Fr 08:00-20:00; Sa,Su 10:00-18:00", "website": "https://cafeengel.fi"}),
    place(3, "w300", "poi", "Esplanadin puisto", "Esplanadin puisto, Helsinki", 60.1675, 24.9480, "park",
          "leisure=park", {"city": "Helsinki"},
          geometry={"type": "Polygon", "coordinates": [square(24.9440, 60.1671, 24.9520, 60.1679),
                                                       square(24.9475, 60.1674, 24.9485, 60.1676)]}),
    place(4, "w46", "street", "Mannerheimintie", "Mannerheimintie, Helsinki", 60.1700, 24.9395,
          address={"city": "Helsinki"},
          geometry={"type": "MultiLineString", "coordinates": [[[24.9420, 60.1660], [24.9406, 60.1686], [24.9390, 60.1710]],
                                                               [[24.9390, 60.1710], [24.9370, 60.1740]]]}),
    place(5, "n1002", "poi", "Café Aalto", "Café Aalto, Pohjoisesplanadi 39, 00100 Helsinki", 60.1679, 24.9448,
          "cafe", "amenity=cafe", {"street": "Pohjoisesplanadi", "housenumber": "39", "city": "Helsinki"}),
    place(6, "n1003", "poi", "Savoy", "Savoy, Eteläesplanadi 14, 00130 Helsinki", 60.1670, 24.9490,
          "restaurant", "amenity=restaurant", {"street": "Eteläesplanadi", "housenumber": "14", "city": "Helsinki"}),
    place(7, "r200", "water", "Eteläsatama", "Eteläsatama, Helsinki", 60.1640, 24.9560,
          geometry={"type": "Polygon", "coordinates": [[[24.9520, 60.1665], [24.9600, 60.1665], [24.9600, 60.1600],
                                                        [24.9540, 60.1610], [24.9520, 60.1665]]]}),
    place(8, "n2001", "address", None, "Aleksanterinkatu 52, 00100 Helsinki", 60.1687, 24.9430,
          address={"street": "Aleksanterinkatu", "housenumber": "52", "postcode": "00100", "city": "Helsinki"}),
    place(9, "r34914", "city", "Helsinki", "Helsinki", 60.1699, 24.9384,
          geometry={"type": "Polygon", "coordinates": [square(24.9300, 60.1600, 24.9650, 60.1760)]}),
    place(10, "n1004", "poi", "Cafe <script>alert(1)</script>", "Cafe <script>alert(1)</script> & Co, Helsinki",
          60.1684, 24.9500, "cafe", "amenity=cafe"),   # markup in a name must show as text
])

CATEGORIES = [
    {"id": "food", "parent": None, "label": "Food & drink", "depth": 0, "places": 0, "places_with_children": 4},
    {"id": "cafe", "parent": "food", "label": "Café", "depth": 1, "places": 3, "places_with_children": 3},
    {"id": "restaurant", "parent": "food", "label": "Restaurant", "depth": 1, "places": 1, "places_with_children": 1},
    {"id": "leisure", "parent": None, "label": "Leisure", "depth": 0, "places": 0, "places_with_children": 1},
    {"id": "park", "parent": "leisure", "label": "Park", "depth": 1, "places": 1, "places_with_children": 1},
    {"id": "shop", "parent": None, "label": "Shops", "depth": 0, "places": 0, "places_with_children": 0},
]
CHILDREN = {"food": {"cafe", "restaurant"}, "leisure": {"park"}}


class APIError(Exception):
    def __init__(self, status, message, parameter=None):
        super().__init__(message)
        self.status, self.message, self.parameter = status, message, parameter


def distance(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    a = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * 6371008.8 * math.asin(math.sqrt(a))


def number(params, name, required=True):
    if name not in params:
        if required:
            raise APIError(400, f"missing parameter '{name}'", name)
        return None
    try:
        return float(params[name])
    except ValueError:
        raise APIError(400, f"'{name}' must be a number", name)


def text_matches(q):
    """Places with a word of display_name starting with q, with the highlight of the match (Character offsets)."""
    q = q.strip().lower()
    if not q:
        raise APIError(400, "missing parameter 'q'", "q")
    found = []
    for p, _ in PLACES.values():
        name = p["display_name"]
        starts = [0] + [i + 1 for i, c in enumerate(name) if c in " ,"]
        for s in starts:
            if name.lower().startswith(q, s):
                found.append(dict(p, match="exact" if len(q) == len(name.split(",")[0]) else "prefix", score=1.0,
                                  highlights=[{"start": s, "end": s + len(q)}]))
                break
    return found


def page(results, params, size):
    start = int(params.get("after", "0") or 0)
    limit = int(params.get("limit", "10"))
    size = min(size, limit)
    chunk = results[start:start + size]
    return {"results": chunk, "next": str(start + size) if start + size < len(results) else None}


def answer(path, params):
    if path == "/v1/status":
        return {"databases": [{"file": "helsinki-mock.sqlite", "places": len(PLACES), "timezones": True,
                               "extent": EXTENT, "sources": [{"file": "mock"}]}]}
    if path == "/v1/page-config":
        return {"tiles": None, "view": EXTENT,
                "attribution": [{"text": "© OpenStreetMap contributors", "url": "https://www.openstreetmap.org/copyright",
                                 "license": "ODbL 1.0", "license_url": "https://opendatacommons.org/licenses/odbl/1-0/"}]}
    if path == "/v1/categories":
        return {"categories": CATEGORIES}
    if path in ("/v1/autocomplete", "/v1/search"):
        found = text_matches(params.get("q", ""))
        if path == "/v1/autocomplete":
            q = params["q"].strip().lower()
            for c in CATEGORIES:
                if c["places_with_children"] and c["label"].lower().replace("é", "e").startswith(q.replace("é", "e")):
                    found.insert(0, {"id": 0, "source_id": "category:" + c["id"], "kind": "category", "name": c["label"],
                                     "display_name": c["label"], "lat": 0, "lon": 0, "category_id": c["id"],
                                     "address": {}, "tags": {}, "match": "category",
                                     "highlights": [{"start": 0, "end": len(q)}]})
        return page(found, params, 100)
    if path == "/v1/place":
        ref = params.get("ref")
        if not ref:
            raise APIError(400, "missing parameter 'ref'", "ref")
        hit = next(((p, g) for p, g in PLACES.values() if str(p["id"]) == ref or p["source_id"] == ref), None)
        if hit is None:
            raise APIError(404, f"no place '{ref}'", "ref")
        p, g = hit
        return {"place": p, "names": [{"name": p["name"], "type": "name", "lang": None}] if p["name"] else [],
                "source": "helsinki-mock.osm.pbf", "geometry": g}
    if path == "/v1/map":
        try:
            min_lon, min_lat, max_lon, max_lat = (float(v) for v in params["bbox"].split(","))
        except (KeyError, ValueError):
            raise APIError(400, "bbox must be min lon,min lat,max lon,max lat", "bbox")
        features = []
        for p, g in PLACES.values():
            geometry = g or {"type": "Point", "coordinates": [p["lon"], p["lat"]]}
            if min_lon - 0.05 <= p["lon"] <= max_lon + 0.05 and min_lat - 0.05 <= p["lat"] <= max_lat + 0.05:
                features.append({"type": "Feature", "geometry": geometry,
                                 "properties": {"id": p["id"], "kind": p["kind"], "name": p["name"],
                                                "category_id": p.get("category_id")}})
        return {"type": "FeatureCollection", "features": features}
    if path == "/v1/reverse":
        lat, lon = number(params, "lat"), number(params, "lon")
        if not (-90 <= lat <= 90):
            raise APIError(400, "lat must be within -90...90", "lat")
        best = min((distance(lat, lon, p["lat"], p["lon"]), p["id"]) for p, _ in PLACES.values() if p["kind"] != "city")
        if best[0] > 2000:
            return {"results": []}
        return {"results": [{"place": dict(PLACES[best[1]][0], distance_m=round(best[0], 1)), "hierarchy_source": "mock",
                             "timezone": "Europe/Helsinki", "areas_of_interest": ["Kluuvi"], "water": None}]}
    if path == "/v1/nearby":
        lat, lon = number(params, "lat"), number(params, "lon")
        radius = number(params, "radius", required=False) or 1000
        category = params.get("category")
        wanted = {category} | CHILDREN.get(category, set()) if category else None
        found = sorted((dict(p, distance_m=round(distance(lat, lon, p["lat"], p["lon"]), 1)) for p, _ in PLACES.values()
                        if p["kind"] == "poi" and (wanted is None or p.get("category_id") in wanted)),
                       key=lambda p: p["distance_m"])
        # Pages of two, so that the page's "More" button has a next page to fetch.
        return page([p for p in found if p["distance_m"] <= radius], params, 2)
    raise APIError(404, f"no endpoint {path}")


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        url = urlparse(self.path)
        if url.path in FILES:
            name, content_type = FILES[url.path]
            return self.send(200, (WEB / name).read_bytes(), content_type)
        if self.server.api:
            return self.forward()
        params = {k: v[-1] for k, v in parse_qs(url.query).items()}
        try:
            body, status = answer(url.path, params), 200
        except APIError as e:
            body, status = {"error": {"code": e.status, "message": e.message, "parameter": e.parameter}}, e.status
        content_type = "application/geo+json" if url.path == "/v1/map" and status == 200 else "application/json"
        self.send(status, json.dumps(body, ensure_ascii=False).encode(), content_type)

    def forward(self):
        try:
            with urllib.request.urlopen(self.server.api + self.path, timeout=60) as r:
                status, body, content_type = r.status, r.read(), r.headers.get("Content-Type", "application/json")
        except urllib.error.HTTPError as e:   # the API's 400/404/503 carry its JSON error: pass them on
            status, body, content_type = e.code, e.read(), e.headers.get("Content-Type", "application/json")
        self.send(status, body, content_type)

    def send(self, status, body, content_type):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, fmt, *args):
        if self.server.verbose:
            super().log_message(fmt, *args)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port (printed)")
    parser.add_argument("--verbose", action="store_true", help="log each request")
    parser.add_argument("--api", help="forward /v1 to this geodb serve (e.g. http://127.0.0.1:8080) instead of mocking")
    args = parser.parse_args()
    server = ThreadingHTTPServer((args.host, args.port), Handler)
    server.verbose = args.verbose
    server.api = args.api.rstrip("/") if args.api else None
    print(f"listening on http://{args.host}:{server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
