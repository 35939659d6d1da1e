#!/usr/bin/env python3
"""geopy's Nominatim and Photon geocoders, unmodified, pointed at `geodb serve` on SampleData's
Liechtenstein: forward, structured, reverse, with address details. Prints one JSON line of what was checked;
exits 1 naming the first check that failed. Run by ServerClientTests (which sets up geopy in a venv)."""
import argparse
import json
import sys

from geopy.geocoders import Nominatim, Photon

parser = argparse.ArgumentParser()
parser.add_argument("--url", required=True, help="http://127.0.0.1:PORT")
args = parser.parse_args()
domain = args.url.split("://", 1)[1].rstrip("/")
checked = []


def check(name, condition, detail):
    if not condition:
        print(f"FAILED {name}: {detail}", file=sys.stderr)
        sys.exit(1)
    checked.append(name)


def near(location, lat, lon, tolerance=0.001):
    return location is not None and abs(location.latitude - lat) < tolerance and abs(location.longitude - lon) < tolerance


nominatim = Nominatim(user_agent="geodb-tests", domain=domain, scheme="http", timeout=10)

house = nominatim.geocode("Austrasse 9, Vaduz", addressdetails=True)
check("nominatim free text", near(house, 47.13168, 9.52287), house and house.raw)
check("nominatim address details", house.raw["address"].get("road") == "Austrasse" and house.raw["address"].get("house_number") == "9"
      and house.raw["address"].get("country_code") == "li", house.raw.get("address"))

structured = nominatim.geocode({"street": "9 Austrasse", "city": "Vaduz"}, addressdetails=True)
check("nominatim structured", near(structured, 47.13168, 9.52287), structured and structured.raw)

towns = nominatim.geocode("Vaduz", exactly_one=False, limit=3, country_codes="li", featuretype="city")
check("nominatim list", towns and towns[0].raw.get("name") == "Vaduz" and len(towns) <= 3, towns)

nothing = nominatim.geocode("Vaduz", country_codes="mc")
check("nominatim nothing", nothing is None, nothing)

back = nominatim.reverse("47.13168, 9.52287", addressdetails=True)
check("nominatim reverse", back is not None and back.raw["address"].get("road") == "Austrasse"
      and "Vaduz" in back.address, back and back.raw)
town = nominatim.reverse("47.1392, 9.5227", zoom=10)
check("nominatim reverse zoom", town is not None and town.raw.get("name") == "Vaduz", town and town.raw)

photon = Photon(domain=domain, scheme="http", timeout=10)
typed = photon.geocode("vadu", exactly_one=False, limit=5, location_bias=(47.1, 9.5))
check("photon search", typed and typed[0].raw["properties"].get("name") == "Vaduz" and near(typed[0], 47.1393, 9.5228), typed)
check("photon address", "Liechtenstein" in typed[0].address, typed[0].address)
roads = photon.geocode("vadu", exactly_one=False, osm_tag="highway")
check("photon osm_tag", roads and all(r.raw["properties"]["osm_key"] == "highway" for r in roads), roads)
nearby = photon.reverse("47.13168, 9.52287")
check("photon reverse", nearby is not None and nearby.raw["properties"].get("street") == "Austrasse", nearby and nearby.raw)

print(json.dumps({"checked": checked, "house": house.address, "reverse": back.address, "photon": typed[0].address}))
