#!/usr/bin/env python3
"""Measures how closely `geodb serve` answers Photon's API (/api, /reverse) as Photon 1.x does.

    python3 Tools/verify/photon-expectations.py [--geodb BIN] [--data PBF] [--filter TEXT]
        [--verbose] [--json OUT] [--min-pass PERCENT] [--rebuild]

The expectations below are what Photon's API documentation (docs/api-v1.md, docs/categories.md in
github.com/komoot/photon) and its API and query tests (ApiIntegrationTest, QueryReverseTest,
QueryFilterLayerTest, QueryFilterTagValueTest, TagFilterTest, ApiCountryCodeFilterTest, ApiDedupeTest,
ApiCorsTest) require, written here in our own words with values for Liechtenstein: parameter checking
(an unknown parameter, a bad number, one coordinate without the other, a bad bbox, layer, osm_tag or
category are 400; limit is cut to 1…50, not refused), the answer's shape and field types, extent's order,
osm_tag/layer/include/exclude/countrycode/dedupe semantics, names by lang and Accept-Language, and
reverse: default limit 1 and radius 1 km, every answer within the radius, nearest first. Nothing of
Photon (Apache-2.0) is copied.

The data is Liechtenstein (--data, else ../shared/data/liechtenstein.osm.pbf beside the repository, else
SampleData/liechtenstein.osm.pbf), imported with `geodb import` into .build/photon-expectations/ (again
when the input or the binary changes, or with --rebuild), served with `geodb serve DB --port 0` for the
run. Prints each expectation's pass or fail (with the reason), the total, and with --json OUT every
result. Exit status 0 unless --min-pass is given and the pass rate is below it (1), or the runner cannot
run (2). Standard library only.
"""
import argparse
import importlib.util
import json
import math
import re
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# The Nominatim suite's server runner and helpers, shared rather than copied.
_spec = importlib.util.spec_from_file_location('nominatim_api_suite', Path(__file__).with_name('nominatim-api-suite.py'))
_suite = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_suite)
Server, trunc, sha256_file = _suite.Server, _suite.trunc, _suite.sha256_file
LAYERS = {'house', 'street', 'locality', 'district', 'city', 'county', 'state', 'country', 'other'}

# Places of Liechtenstein the expectations name.
VADUZ = (47.1392862, 9.5227962)          # the town node, osm N1932181216 (place=town)
AUSTRASSE_9 = (47.13168, 9.52287)         # a house, Austrasse 9, Vaduz
MOUNTAINS = (47.08, 9.60)                 # nothing within 50 m
RUGGELL = (47.2399, 9.5274)
VADUZ_BOX = (9.49, 47.08, 9.62, 47.20)    # minLon, minLat, maxLon, maxLat

# Each expectation: name, Photon's source for it, path, parameters, checks, optional request headers.
# Checks: ('status', N), ('json_type',), ('message',), ('count', op, N), ('all'|'none'|'first'|'any',
# property, op, value), ('typed',), ('extent_order',), ('sorted_by_distance', lat, lon),
# ('within_km', lat, lon, km), ('inside', box), ('geometry', {types}), ('no_street_dupes',).
EXPECTATIONS = []


def expect(name, source, path, params, *checks, headers=None):
    EXPECTATIONS.append({'name': name, 'source': source, 'path': path, 'params': params,
                         'checks': list(checks), 'headers': headers or {}})


def bad(name, source, path, params):
    expect(name, source, path, params, ('status', 400))


# Parameter checking: /api.
bad('search without q', 'ApiIntegrationTest.testSearchMissingQuery', '/api', [('debug', '1')])
bad('search with blank q', 'SimpleSearchRequestFactory', '/api', [('q', ' ')])
bad('search with an unknown parameter', 'ApiIntegrationTest.testBogus', '/api', [('q', 'vaduz'), ('bogus', 'thing')])
bad('search limit not a number', 'ApiIntegrationTest.testBadLimitParameter', '/api', [('q', 'vaduz'), ('limit', 'NaN')])
for bias in ['lat=47.1', 'lon=9.5', 'lat=47.1&lon=NaN', 'lat=NaN&lon=9.5', 'lat=47.1&lon=bad', 'lat=47.1&lon=Infinity',
             'lat=-Infinity&lon=9.5', 'lat=47.1&lon=', 'lat=&lon=9.5', 'lat=47.1&lon=180.01', 'lat=90.01&lon=9.5',
             'lat=-90.01&lon=9.5', 'lat=47.1&lon=-180.01']:
    bad(f'search bias {bias}', 'ApiIntegrationTest.testSearchBadLocation', '/api',
        [('q', 'vaduz')] + urllib.parse.parse_qsl(bias, keep_blank_values=True))
for box in ['9.6,47.1,9.8', '9.6,47.1,NaN,47.2', '9.6,47.1,-Infinity,47.2', '9.6,47.1,r34,47.2', '9.6,-92,9.8,14',
            '9.6,14,9.8,91', '-181, 9, 4, 12', '12, 9, 181, 12']:
    bad(f'search bbox {box}', 'ApiIntegrationTest.testSearchBadBbox', '/api', [('q', 'vaduz'), ('bbox', box)])
for scale in ['bad', 'NaN']:
    bad(f'search location_bias_scale={scale}', 'ApiIntegrationTest.testSearchBadLocationBiasScale', '/api',
        [('q', 'vaduz'), ('lat', '47.1'), ('lon', '9.5'), ('location_bias_scale', scale)])
bad('search zoom not a whole number', 'SearchRequestFactoryBase (zoom is an Integer)', '/api', [('q', 'vaduz'), ('zoom', 'bad')])
bad('search unknown layer', 'ApiIntegrationTest.testBadLayerParameter', '/api', [('q', 'vaduz'), ('layer', 'locality'), ('layer', 'suburb')])
for tag in ['bad:bad:bad', 'shop:', ':', 'addr:housenumber:1']:
    bad(f'search osm_tag={tag}', 'ApiIntegrationTest.testBadOsmTagParameter, TagFilterTest', '/api', [('q', 'vaduz'), ('osm_tag', tag)])
for category in ['4+5.6', 'abc', 'ab..23', 'a.b,c', 'a.b,!c.d']:
    bad(f'search include={category}', 'ApiIntegrationTest.testCategoryBadValues', '/api', [('q', 'vaduz'), ('include', category)])
bad('search exclude of a group alone', 'docs/categories.md', '/api', [('q', 'vaduz'), ('exclude', 'osm')])

# Parameter checking: /reverse.
for point in ['lat=47.1', 'lon=9.5', 'radius=1.0', 'lat=47.1&lon=NaN', 'lat=Nan&lon=9.5', 'lat=47.1&lon=bad',
              'lat=47.1&lon=Infinity', 'lat=-Infinity&lon=9.5', 'lat=47.1&lon=', 'lat=47.1&lon=180.01',
              'lat=90.01&lon=9.5', 'lat=-90.01&lon=9.5', 'lat=47.1&lon=-180.01']:
    bad(f'reverse {point}', 'ApiIntegrationTest.testReverseBadLocation', '/photon/reverse',
        urllib.parse.parse_qsl(point, keep_blank_values=True))
for radius in ['bad', 'NaN', '0.0', '-10.0']:
    bad(f'reverse radius={radius}', 'ApiIntegrationTest.testReverseBadRadius', '/photon/reverse',
        [('lat', '47.1'), ('lon', '9.5'), ('radius', radius)])
bad('reverse with an unknown parameter', 'ApiIntegrationTest.testBogus', '/reverse',
    [('lat', '47.1'), ('lon', '9.5'), ('limit', '1'), ('bogus', 'thing')])
bad('reverse limit not a number', 'ApiIntegrationTest.testBadLimitParameter', '/photon/reverse',
    [('lat', '47.1'), ('lon', '9.5'), ('limit', 'NaN')])
bad('reverse unknown layer', 'ApiIntegrationTest.testBadLayerParameter', '/photon/reverse', [('lat', '47.1'), ('lon', '9.5'), ('layer', 'suburb')])
bad('reverse osm_tag with two colons', 'ApiIntegrationTest.testBadOsmTagParameter', '/photon/reverse',
    [('lat', '47.1'), ('lon', '9.5'), ('osm_tag', 'bad:bad:bad')])
bad('reverse q is not a reverse parameter', 'ReverseRequestFactory (parameters allowed)', '/photon/reverse',
    [('lat', '47.1'), ('lon', '9.5'), ('q', 'vaduz')])

# Parameters Photon takes, answered.
for extra in [('zoom', '12'), ('location_bias_scale', '0.1'), ('suggest_addresses', '1'), ('debug', '0'),
              ('dedupe', '0'), ('geometry', '0'), ('countrycode', 'LI'), ('include', 'osm.place'), ('exclude', 'osm.highway')]:
    expect(f'search takes {extra[0]}', 'SimpleSearchRequestFactory (parameters allowed)', '/api',
           [('q', 'vaduz'), ('lat', '47.1'), ('lon', '9.5'), extra], ('status', 200), ('count', '>=', 1))
for extra in [('radius', '2'), ('distance_sort', 'false'), ('lang', 'de'), ('dedupe', '1'), ('geometry', '0'), ('debug', '0')]:
    expect(f'reverse takes {extra[0]}', 'ReverseRequestFactory (parameters allowed)', '/photon/reverse',
           [('lat', str(AUSTRASSE_9[0])), ('lon', str(AUSTRASSE_9[1])), extra], ('status', 200), ('count', '==', 1))
expect('search path with a trailing slash', 'ApiCorsTest (/api/)', '/api/', [('q', 'vaduz')], ('status', 200), ('count', '>=', 1))
expect('reverse path with a trailing slash', 'ApiIntegrationTest.testApi (/reverse/)', '/reverse/',
       [('lat', str(AUSTRASSE_9[0])), ('lon', str(AUSTRASSE_9[1])), ('limit', '1')], ('status', 200), ('count', '==', 1))

# Limits: cut to 1…50, default 15 for search and 1 for reverse.
expect('search limit=0 answers one', 'RequestBase.setLimit (at least 1)', '/api', [('q', 'strasse'), ('limit', '0')], ('status', 200), ('count', '==', 1))
expect('search limit=-3 answers one', 'RequestBase.setLimit (at least 1)', '/api', [('q', 'strasse'), ('limit', '-3')], ('status', 200), ('count', '==', 1))
expect('search limit=500 answers at most 50', 'ApiServerConfig -max-results 50', '/api', [('q', 'strasse'), ('limit', '500')],
       ('status', 200), ('count', '<=', 50), ('count', '>', 15))
expect('search limit=1', 'ApiIntegrationTest.testLimitParameter', '/api', [('q', 'vaduz'), ('limit', '1')], ('count', '==', 1))
expect('search limit=20 answers more than one', 'ApiIntegrationTest.testLimitParameter', '/api', [('q', 'vaduz'), ('limit', '20')], ('count', '>', 1))
expect('search without limit answers 15', 'RequestBase (limit 15)', '/api', [('q', 'strasse')], ('count', '==', 15))
expect('reverse without limit answers one', 'QueryReverseTest.testDefaultLimitIsOne', '/photon/reverse',
       [('lat', str(AUSTRASSE_9[0])), ('lon', str(AUSTRASSE_9[1]))], ('count', '==', 1))
expect('reverse limit=500 answers at most 50', 'ApiServerConfig -max-reverse-results 50', '/photon/reverse',
       [('lat', str(AUSTRASSE_9[0])), ('lon', str(AUSTRASSE_9[1])), ('limit', '500'), ('radius', '3')], ('status', 200), ('count', '==', 50))

# The answer: GeoJSON with Photon's properties.
expect('search answer is a FeatureCollection of Points, typed', 'docs/api-v1.md (Results), GeoJsonFormatter', '/api',
       [('q', 'vaduz'), ('limit', '10')], ('status', 200), ('json_type',), ('count', '>=', 5), ('typed',))
expect('search for Vaduz answers the town first', 'ApiIntegrationTest.testApi', '/api', [('q', 'Vaduz'), ('limit', '1')],
       ('first', 'name', '==', 'Vaduz'), ('first', 'osm_key', '==', 'place'), ('first', 'osm_value', '==', 'town'),
       ('first', 'type', '==', 'city'), ('first', 'osm_type', '==', 'N'), ('first', 'osm_id', '==', 1932181216),
       ('first', 'countrycode', '==', 'LI'), ('first', 'country', '==', 'Liechtenstein'))
expect('extent is [minLon, maxLat, maxLon, minLat]', 'docs/api-v1.md (extent example)', '/api',
       [('q', 'vaduz'), ('limit', '10')], ('any', 'extent', 'present', None), ('extent_order',))
expect('an address has housenumber, street, postcode, city', 'GeoJsonFormatter', '/photon/reverse',
       [('lat', str(AUSTRASSE_9[0])), ('lon', str(AUSTRASSE_9[1]))], ('first', 'housenumber', '==', '9'),
       ('first', 'street', '==', 'Austrasse'), ('first', 'postcode', '==', '9490'), ('first', 'city', '==', 'Vaduz'),
       ('first', 'type', '==', 'house'), ('typed',))
expect('reverse answer is a FeatureCollection of Points, typed', 'ApiIntegrationTest.testSearchWithoutGeometry', '/photon/reverse',
       [('lat', str(AUSTRASSE_9[0])), ('lon', str(AUSTRASSE_9[1])), ('limit', '10')], ('json_type',), ('typed',))
expect('geometry=1 answers the polygon of an area', 'ApiIntegrationTest.testSearchAndGetGeometry', '/api',
       [('q', 'vaduz'), ('limit', '1'), ('geometry', '1')], ('geometry', {'Polygon', 'MultiPolygon'}))
expect('geometry=1 answers the line of a street', 'ApiIntegrationTest.testSearchAndGetLineString', '/api',
       [('q', 'Austrasse'), ('layer', 'street'), ('limit', '1'), ('geometry', 'true')], ('geometry', {'LineString', 'MultiLineString'}))
expect('an error is {"message": …} in JSON', 'App (formatError)', '/api', [], ('status', 400), ('json_type',), ('message',))
expect('a reverse error is {"message": …} in JSON', 'App (formatError)', '/photon/reverse', [('lat', '47.1')], ('status', 400), ('json_type',), ('message',))
expect('a bad parameter of /reverse is {"message": …}', 'App (formatError)', '/reverse', [('lat', '47.1'), ('lon', '9.5'), ('limit', 'x')],
       ('status', 400), ('json_type',), ('message',))

# osm_tag.
Q = [('q', 'schaan'), ('limit', '50')]
expect('osm_tag=key keeps that key', 'ApiIntegrationTest.testOsmKeyFilter', '/api', Q + [('osm_tag', 'highway')],
       ('count', '>', 1), ('all', 'osm_key', '==', 'highway'))
expect('osm_tag=!key leaves it out', 'ApiIntegrationTest.testOsmKeyFilterNeg', '/api', Q + [('osm_tag', '!highway')],
       ('count', '>', 1), ('none', 'osm_key', '==', 'highway'))
expect('osm_tag=:value keeps that value', 'ApiIntegrationTest.testOsmValueFilter', '/api', Q + [('osm_tag', ':town')],
       ('count', '>=', 1), ('all', 'osm_value', '==', 'town'))
expect('osm_tag=:!value leaves it out', 'ApiIntegrationTest.testOsmValueFilterNeg', '/api', Q + [('osm_tag', ':!town')],
       ('count', '>', 1), ('none', 'osm_value', '==', 'town'))
expect('osm_tag=!:value leaves it out', 'TagFilterTest', '/api', Q + [('osm_tag', '!:town')],
       ('count', '>', 1), ('none', 'osm_value', '==', 'town'))
expect('osm_tag=key:value keeps the pair', 'ApiIntegrationTest.testOsmTagFilter', '/api', Q + [('osm_tag', 'place:town')],
       ('count', '>=', 1), ('all', 'osm_value', '==', 'town'), ('all', 'osm_key', '==', 'place'))
expect('osm_tag=!key:value leaves the pair out', 'ApiIntegrationTest.testOsmTagFilterNeg', '/api', Q + [('osm_tag', '!place:town')],
       ('count', '>', 1), ('none', 'osm_value', '==', 'town'))
expect('osm_tag=key:!value keeps the key but that value', 'QueryFilterTagValueTest (tourism:!information)', '/api',
       Q + [('osm_tag', 'highway:!residential')], ('count', '>=', 1), ('all', 'osm_key', '==', 'highway'),
       ('none', 'osm_value', '==', 'residential'))
expect('two osm_tag includes keep either', 'QueryFilterTagValueTest (food, amenity)', '/api',
       Q + [('osm_tag', 'place'), ('osm_tag', 'highway')], ('count', '>', 1), ('all', 'osm_key', 'in', ['place', 'highway']),
       ('any', 'osm_key', '==', 'place'), ('any', 'osm_key', '==', 'highway'))
expect('an include and an exclude osm_tag', 'QueryFilterTagValueTest (tourism, !amenity)', '/api',
       Q + [('osm_tag', 'highway'), ('osm_tag', '!:residential')], ('count', '>=', 1), ('all', 'osm_key', '==', 'highway'),
       ('none', 'osm_value', '==', 'residential'))
expect('reverse osm_tag=key:value: the nearest of that tag within the radius', 'docs/api-v1.md (5 pharmacies closest)', '/photon/reverse',
       [('lat', '47.14'), ('lon', '9.52'), ('osm_tag', 'amenity:pharmacy'), ('limit', '5'), ('radius', '5')],
       ('count', '>=', 3), ('all', 'osm_value', '==', 'pharmacy'), ('sorted_by_distance', 47.14, 9.52), ('within_km', 47.14, 9.52, 5))
expect('reverse osm_tag=!key leaves it out', 'QueryFilterTagValueTest (reverse)', '/photon/reverse',
       [('lat', str(AUSTRASSE_9[0])), ('lon', str(AUSTRASSE_9[1])), ('osm_tag', '!building'), ('limit', '10')],
       ('count', '>=', 1), ('none', 'osm_key', '==', 'building'))

# include / exclude categories.
expect('include=osm.key.value keeps the tag', 'ApiIntegrationTest.testIncludeCategory', '/api', Q + [('include', 'osm.place.town')],
       ('count', '>=', 1), ('all', 'osm_value', '==', 'town'))
expect('include=osm.key keeps the key (a prefix)', 'docs/categories.md (partial label paths)', '/api', Q + [('include', 'osm.highway')],
       ('count', '>', 1), ('all', 'osm_key', '==', 'highway'))
expect('include=a,b keeps either', 'docs/categories.md', '/api', Q + [('include', 'osm.place.town,osm.highway')],
       ('count', '>', 1), ('all', 'osm_key', 'in', ['place', 'highway']), ('any', 'osm_key', '==', 'place'))
expect('repeated include must all hold', 'docs/categories.md', '/api', Q + [('include', 'osm.highway'), ('include', 'osm.place.town')],
       ('count', '==', 0))
expect('exclude leaves the category out', 'ApiIntegrationTest.testExcludeCategory', '/api',
       Q + [('exclude', 'osm.place.town'), ('exclude', 'osm.highway')], ('count', '>=', 1), ('none', 'osm_key', '==', 'highway'),
       ('none', 'osm_value', '==', 'town'))
expect('exclude=a,b leaves out only places with both', 'docs/categories.md', '/api',
       Q + [('exclude', 'osm.highway,osm.place.town')], ('any', 'osm_key', '==', 'highway'), ('any', 'osm_value', '==', 'town'))
expect('reverse include', 'docs/categories.md (reverse too)', '/photon/reverse',
       [('lat', '47.14'), ('lon', '9.52'), ('include', 'osm.amenity.pharmacy'), ('limit', '5'), ('radius', '5')],
       ('count', '>=', 3), ('all', 'osm_value', '==', 'pharmacy'))

# Layers.
expect('layer=street keeps streets', 'QueryFilterLayerTest.testSearchSingleLayer', '/api', Q + [('layer', 'street')],
       ('count', '>', 1), ('all', 'type', '==', 'street'))
expect('layer=city&layer=locality keeps both', 'QueryFilterLayerTest.testSearchMultipleLayers', '/api',
       [('q', 'ebenholz'), ('layer', 'city'), ('layer', 'house'), ('limit', '20')], ('count', '>', 1),
       ('all', 'type', 'in', ['city', 'house']), ('any', 'type', '==', 'city'), ('any', 'type', '==', 'house'))
expect('layer=county', 'docs/api-v1.md (layers)', '/api', [('q', 'oberland'), ('layer', 'county')],
       ('count', '>=', 1), ('all', 'type', '==', 'county'))
expect('layer=other keeps features like rivers', 'docs/api-v1.md (other, e.g. natural features)', '/api',
       [('q', 'rhein'), ('layer', 'other'), ('limit', '5')], ('count', '>=', 1), ('all', 'type', '==', 'other'))
expect('reverse layer=city', 'QueryFilterLayerTest.testReverseSingleLayer', '/photon/reverse',
       [('lat', str(VADUZ[0])), ('lon', str(VADUZ[1])), ('layer', 'city'), ('limit', '5')],
       ('count', '>=', 1), ('all', 'type', '==', 'city'), ('first', 'name', '==', 'Vaduz'))
expect('reverse layer=street', 'QueryFilterLayerTest.testReverseSingleLayer', '/photon/reverse',
       [('lat', str(AUSTRASSE_9[0])), ('lon', str(AUSTRASSE_9[1])), ('layer', 'street'), ('limit', '5')],
       ('count', '>', 1), ('all', 'type', '==', 'street'), ('sorted_by_distance',) + AUSTRASSE_9)
expect('reverse layer=district answers only districts', 'QueryFilterLayerTest (reverse by layer)', '/photon/reverse',
       [('lat', str(AUSTRASSE_9[0])), ('lon', str(AUSTRASSE_9[1])), ('layer', 'district'), ('limit', '5'), ('radius', '3')],
       ('all', 'type', '==', 'district'))
expect('reverse layer=city&layer=house', 'QueryFilterLayerTest.testReverseMultipleLayers', '/photon/reverse',
       [('lat', str(VADUZ[0])), ('lon', str(VADUZ[1])), ('layer', 'city'), ('layer', 'house'), ('limit', '10')],
       ('count', '>', 1), ('all', 'type', 'in', ['city', 'house']), ('any', 'type', '==', 'city'), ('any', 'type', '==', 'house'))

# bbox, bias, country codes, dedupe.
box = ','.join(map(str, VADUZ_BOX))
expect('bbox keeps places inside', 'docs/api-v1.md (bbox)', '/api', [('q', 'strasse'), ('bbox', box), ('limit', '30')],
       ('count', '>', 1), ('inside', VADUZ_BOX))
expect('bbox with its corners swapped', 'BoundingBoxParamConverter (an Envelope of two corners)', '/api',
       [('q', 'strasse'), ('bbox', '9.62,47.20,9.49,47.08'), ('limit', '30')], ('status', 200), ('count', '>', 1), ('inside', VADUZ_BOX))
expect('a bias near Ruggell puts its Kirchstrasse first', 'ApiIntegrationTest.testApi (location bias)', '/api',
       [('q', 'kirchstrasse'), ('lat', str(RUGGELL[0])), ('lon', str(RUGGELL[1]))], ('first', 'city', '==', 'Ruggell'))
expect('a bias near Vaduz puts its Kirchstrasse first', 'ApiIntegrationTest.testApi (location bias)', '/api',
       [('q', 'kirchstrasse'), ('lat', str(VADUZ[0])), ('lon', str(VADUZ[1]))], ('first', 'city', '==', 'Vaduz'))
expect('countrycode=LI keeps Liechtenstein', 'ApiCountryCodeFilterTest.testSingleCountryCodeReturnsCorrectCountry', '/api',
       [('q', 'vaduz'), ('countrycode', 'LI')], ('count', '>=', 1), ('all', 'countrycode', '==', 'LI'))
expect('countrycode is case-insensitive', 'ApiCountryCodeFilterTest.testCountryCodeIsCaseInsensitive', '/api',
       [('q', 'vaduz'), ('countrycode', 'li')], ('count', '>=', 1), ('all', 'countrycode', '==', 'LI'))
expect('countrycode of another country answers nothing', 'ApiCountryCodeFilterTest.testUnknownCountryCodeReturnsNoResults', '/api',
       [('q', 'vaduz'), ('countrycode', 'DE')], ('status', 200), ('count', '==', 0))
expect('countrycode repeated keeps any of them', 'ApiCountryCodeFilterTest.testMultipleCountryCodesExcludeUnknownCountry', '/api',
       [('q', 'vaduz'), ('countrycode', 'DE'), ('countrycode', 'LI')], ('count', '>=', 1), ('all', 'countrycode', '==', 'LI'))
expect('streets once per name, postcode, value and country', 'ApiDedupeTest.testEnabledDedupe', '/api',
       [('q', 'strasse'), ('limit', '50')], ('no_street_dupes',))

# Languages.
expect('lang=en names in English', 'docs/api-v1.md (lang)', '/api', [('q', 'rhine'), ('lang', 'en'), ('osm_tag', 'waterway:river')],
       ('first', 'name', '==', 'Rhine'))
# The Rhine is its waterway relation (R123924), whose name:fr is Rhin (its ways say Le Rhin).
expect('lang=fr names in French', 'docs/api-v1.md (lang)', '/api', [('q', 'rhein'), ('lang', 'fr'), ('osm_tag', 'waterway:river')],
       ('first', 'name', '==', 'Rhin'))
expect('lang=de names in German', 'docs/api-v1.md (lang)', '/api', [('q', 'rhine'), ('lang', 'de'), ('osm_tag', 'waterway:river')],
       ('first', 'name', '==', 'Rhein'))
expect('lang=default names as the data does', 'RequestFactoryBase (lang default)', '/api', [('q', 'rhine'), ('lang', 'default'), ('osm_tag', 'waterway:river')],
       ('first', 'name', '==', 'Rhein'))
expect('Accept-Language without lang', 'docs/api-v1.md (Accept-Language header)', '/api', [('q', 'rhein'), ('osm_tag', 'waterway:river')],
       ('first', 'name', '==', 'Rhin'), headers={'Accept-Language': 'fr-CH, fr;q=0.9'})
expect('lang wins over Accept-Language', 'RequestFactoryBase.parseLanguage', '/api', [('q', 'rhein'), ('lang', 'en'), ('osm_tag', 'waterway:river')],
       ('first', 'name', '==', 'Rhine'), headers={'Accept-Language': 'fr'})
expect('reverse lang=ru names the country in Russian', 'docs/api-v1.md (lang, reverse)', '/photon/reverse',
       [('lat', str(AUSTRASSE_9[0])), ('lon', str(AUSTRASSE_9[1])), ('lang', 'ru')], ('first', 'country', '==', 'Лихтенштейн'))

# Reverse: radius, limit, distance.
expect('reverse at a house answers it', 'QueryReverseTest.testReverse', '/photon/reverse',
       [('lat', str(AUSTRASSE_9[0])), ('lon', str(AUSTRASSE_9[1])), ('radius', '0.1'), ('limit', '1')],
       ('first', 'osm_id', '==', 364542906))
expect('reverse at the town node answers the town', 'ApiIntegrationTest.testApi (basic reverse)', '/reverse',
       [('lat', str(VADUZ[0])), ('lon', str(VADUZ[1])), ('limit', '1')], ('first', 'name', '==', 'Vaduz'), ('first', 'osm_value', '==', 'town'))
expect('reverse limit=10: nearest first, all within the default 1 km', 'QueryReverseTest.testReverseMultiple', '/photon/reverse',
       [('lat', str(AUSTRASSE_9[0])), ('lon', str(AUSTRASSE_9[1])), ('limit', '10')], ('count', '==', 10),
       ('sorted_by_distance',) + AUSTRASSE_9, ('within_km',) + AUSTRASSE_9 + (1,))
expect('reverse radius=0.05 where nothing is near answers nothing', 'ReverseQueryBuilder (geo_distance filter)', '/photon/reverse',
       [('lat', str(MOUNTAINS[0])), ('lon', str(MOUNTAINS[1])), ('radius', '0.05'), ('limit', '5')], ('status', 200), ('count', '==', 0))
expect('reverse radius=0.5: every answer within 500 m', 'ReverseQueryBuilder (geo_distance filter)', '/photon/reverse',
       [('lat', str(MOUNTAINS[0])), ('lon', str(MOUNTAINS[1])), ('radius', '0.5'), ('limit', '20')],
       ('count', '>=', 1), ('within_km',) + MOUNTAINS + (0.5,), ('sorted_by_distance',) + MOUNTAINS)
expect('reverse radius=2 limit=30: nearest first', 'OpenSearchReverseHandler (sorted by distance)', '/photon/reverse',
       [('lat', '47.14'), ('lon', '9.52'), ('radius', '2'), ('limit', '30')], ('count', '==', 30),
       ('sorted_by_distance', 47.14, 9.52), ('within_km', 47.14, 9.52, 2))
expect('reverse radius up to 5000 km is taken', 'docs/api-v1.md (radius 0…5000 km)', '/photon/reverse',
       [('lat', str(AUSTRASSE_9[0])), ('lon', str(AUSTRASSE_9[1])), ('radius', '4000')], ('status', 200), ('count', '==', 1))
expect('geopy-style /reverse (lat, lon, limit) is Photon', 'geopy Photon.reverse', '/reverse',
       [('lat', str(AUSTRASSE_9[0])), ('lon', str(AUSTRASSE_9[1])), ('limit', '1')], ('json_type',),
       ('first', 'street', '==', 'Austrasse'))


# --------------------------------------------------------------------------------------------------
# Data and server.

def die(msg):
    print(f"photon-expectations: {msg}", file=sys.stderr)
    sys.exit(2)


def find_data(arg):
    candidates = [Path(arg)] if arg else [REPO.parent / 'shared' / 'data' / 'liechtenstein.osm.pbf',
                                         REPO / 'SampleData' / 'liechtenstein.osm.pbf']
    for path in candidates:
        if path.is_file():
            return path.resolve()
    die(f"no Liechtenstein extract: {', '.join(map(str, candidates))}")


def build_db(geodb, data, rebuild):
    cache = REPO / '.build' / 'photon-expectations'
    cache.mkdir(parents=True, exist_ok=True)
    db, stamp = cache / 'liechtenstein.geodb', cache / 'stamp'
    key = f"{sha256_file(geodb)} {sha256_file(data)}"
    if not rebuild and db.is_file() and stamp.is_file() and stamp.read_text() == key:
        return db
    cmd = [str(geodb), 'import', '--force', '--quiet', '-o', str(db), str(data)]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        die(f"import failed ({' '.join(cmd)}):\n{res.stderr}")
    stamp.write_text(key)
    return db


def fetch(base, path, params, headers):
    url = base + path + ('?' + urllib.parse.urlencode(params) if params else '')
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, reply.headers.get('Content-Type', ''), reply.read(), url
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get('Content-Type', ''), error.read(), url


# --------------------------------------------------------------------------------------------------
# Checks: each returns None when it holds, else why not.

def metres(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    a = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * 6371008.8 * math.asin(math.sqrt(a))


def compare(actual, op, value):
    if op == '==':
        return actual == value
    if op == 'in':
        return actual in value
    if op == 'present':
        return actual is not None
    raise ValueError(op)


def point_of(feature):
    geometry = feature.get('geometry') or {}
    coordinates = geometry.get('coordinates')
    if geometry.get('type') == 'Point' and isinstance(coordinates, list) and len(coordinates) == 2:
        return coordinates[1], coordinates[0]
    return None


def check_typed(features):
    strings = ['osm_key', 'osm_value', 'type', 'name', 'housenumber', 'street', 'postcode', 'locality', 'district',
               'city', 'county', 'state', 'country', 'countrycode']
    for i, feature in enumerate(features):
        if feature.get('type') != 'Feature':
            return f"feature {i}: type {feature.get('type')!r}"
        if point_of(feature) is None or not all(isinstance(c, (int, float)) for c in feature['geometry']['coordinates']):
            return f"feature {i}: geometry is not a Point [lon, lat]: {trunc(feature.get('geometry'), 80)}"
        props = feature.get('properties')
        if not isinstance(props, dict):
            return f"feature {i}: no properties"
        for key in ['osm_key', 'osm_value', 'type']:
            if key not in props:
                return f"feature {i}: no {key}"
        for key in strings:
            if key in props and not isinstance(props[key], str):
                return f"feature {i}: {key} is {type(props[key]).__name__}"
        if props['type'] not in LAYERS:
            return f"feature {i}: type {props['type']!r} is no layer"
        if 'osm_type' in props and props['osm_type'] not in ('N', 'W', 'R'):
            return f"feature {i}: osm_type {props['osm_type']!r}"
        if ('osm_type' in props) != ('osm_id' in props) or ('osm_id' in props and not isinstance(props['osm_id'], int)):
            return f"feature {i}: osm_id {props.get('osm_id')!r} with osm_type {props.get('osm_type')!r}"
        if 'countrycode' in props and not re.fullmatch(r'[A-Z]{2}', props['countrycode']):
            return f"feature {i}: countrycode {props['countrycode']!r}"
        if 'extent' in props and not (isinstance(props['extent'], list) and len(props['extent']) == 4
                                      and all(isinstance(v, (int, float)) for v in props['extent'])):
            return f"feature {i}: extent {props['extent']!r}"
    return None


def run_check(check, status, content_type, body, features):
    kind = check[0]
    props = [f.get('properties') or {} for f in features or []]
    if kind == 'status':
        return None if status == check[1] else f"status {status}, expected {check[1]}"
    if kind == 'json_type':
        return None if content_type.split(';')[0].strip() == 'application/json' else f"Content-Type {content_type!r}"
    if kind == 'message':
        return None if isinstance(body, dict) and isinstance(body.get('message'), str) and body['message'] \
            else f"no \"message\" in {trunc(body, 100)}"
    if features is None:
        return f"no features (status {status}): {trunc(body, 120)}"
    if kind == 'count':
        _, op, n = check
        ok = {'==': len(features) == n, '>=': len(features) >= n, '>': len(features) > n, '<=': len(features) <= n}[op]
        return None if ok else f"{len(features)} features, expected {op} {n}"
    if kind in ('all', 'none', 'any', 'first'):
        _, key, op, value = check
        if kind == 'first':
            if not props:
                return "no features"
            return None if compare(props[0].get(key), op, value) else f"first {key} is {props[0].get(key)!r}, expected {op} {value!r}"
        hits = [p.get(key) for p in props if compare(p.get(key), op, value)]
        if kind == 'all':
            misses = [p.get(key) for p in props if not compare(p.get(key), op, value)]
            return None if not misses else f"{len(misses)} with {key} {trunc(misses[:4], 80)}, expected {op} {value!r}"
        if kind == 'none':
            return None if not hits else f"{len(hits)} with {key} {op} {value!r}"
        return None if hits else f"none with {key} {op} {value!r} among {trunc(sorted({str(p.get(key)) for p in props}), 80)}"
    if kind == 'typed':
        return check_typed(features)
    if kind == 'extent_order':
        for p in props:
            e = p.get('extent')
            if e and not (e[0] <= e[2] and e[1] >= e[3]):
                return f"extent {e} is not [minLon, maxLat, maxLon, minLat]"
        return None
    if kind == 'sorted_by_distance':
        _, lat, lon = check
        distances = [metres(lat, lon, *point_of(f)) for f in features if point_of(f)]
        for i in range(1, len(distances)):
            if distances[i] + 0.5 < distances[i - 1]:
                return f"feature {i} at {distances[i]:.0f} m after one at {distances[i - 1]:.0f} m"
        return None
    if kind == 'within_km':
        _, lat, lon, km = check
        far = [round(metres(lat, lon, *point_of(f))) for f in features if point_of(f) and metres(lat, lon, *point_of(f)) > km * 1000 + 1]
        return None if not far else f"{len(far)} farther than {km} km: {far[:4]} m"
    if kind == 'inside':
        min_lon, min_lat, max_lon, max_lat = check[1]
        out = [point_of(f) for f in features if point_of(f) and not (min_lat <= point_of(f)[0] <= max_lat and min_lon <= point_of(f)[1] <= max_lon)]
        return None if not out else f"{len(out)} outside the box: {out[:2]}"
    if kind == 'geometry':
        types = [(f.get('geometry') or {}).get('type') for f in features]
        return None if types and all(t in check[1] for t in types) else f"geometry types {types}, expected {sorted(check[1])}"
    if kind == 'no_street_dupes':
        seen = {}
        for p in props:
            if p.get('osm_key') == 'highway' and p.get('name'):
                key = (p.get('osm_value'), p.get('postcode', ''), p['name'], p.get('countrycode'))
                if key in seen:
                    return f"street {key} twice"
                seen[key] = True
        return None
    raise ValueError(kind)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--geodb', default=str(REPO / '.build' / 'debug' / 'geodb'))
    parser.add_argument('--data', help='the Liechtenstein extract (.osm.pbf)')
    parser.add_argument('--filter', help='only expectations whose name contains this')
    parser.add_argument('--verbose', action='store_true', help='print the URL of each failure')
    parser.add_argument('--json', help='write every result here')
    parser.add_argument('--min-pass', type=float, help='exit 1 below this pass percentage')
    parser.add_argument('--rebuild', action='store_true', help='import the data again')
    args = parser.parse_args()
    geodb = Path(args.geodb)
    if not geodb.is_file():
        die(f"no geodb binary at {geodb} (swift build, or --geodb)")
    db = build_db(geodb.resolve(), find_data(args.data), args.rebuild)
    server = Server(geodb, db, db.parent / 'serve.log')
    if server.error:
        die(server.error)
    results = []
    try:
        for e in EXPECTATIONS:
            if args.filter and args.filter.lower() not in e['name'].lower():
                continue
            status, content_type, raw, url = fetch(server.base, e['path'], e['params'], e['headers'])
            try:
                body = json.loads(raw)
            except ValueError:
                body = raw.decode('utf-8', 'replace')
            features = body.get('features') if isinstance(body, dict) and isinstance(body.get('features'), list) else None
            failures = [why for why in (run_check(c, status, content_type, body, features) for c in e['checks']) if why]
            results.append({'name': e['name'], 'source': e['source'], 'url': url, 'passed': not failures, 'failures': failures})
            mark = 'pass' if not failures else 'FAIL'
            line = f"{mark}  {e['name']}" + ('' if not failures else f"  ({'; '.join(failures)})")
            print(line)
            if failures and args.verbose:
                print(f"      {url.replace(server.base, '')}   [Photon: {e['source']}]")
    finally:
        server.stop()
    passed = sum(r['passed'] for r in results)
    total = len(results)
    percent = 100.0 * passed / total if total else 0.0
    print(f"\n{passed}/{total} expectations pass ({percent:.1f}%)")
    if args.json:
        Path(args.json).write_text(json.dumps({'passed': passed, 'total': total, 'results': results}, indent=1, ensure_ascii=False))
    if args.min_pass is not None and percent < args.min_pass:
        sys.exit(1)


if __name__ == '__main__':
    main()
