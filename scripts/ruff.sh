#!/bin/sh
# Runs ruff, the Python linter, pinned: the PyPI wheel ruff 0.17.5, checked against its sha256
# and cached in .build/wheels; only its one binary is unpacked, into .build/ruff. Nothing is
# installed into Python. The settings are in ruff.toml.
#
#   scripts/ruff.sh ARGS...        e.g. scripts/ruff.sh check bench scripts
set -eu
cd "$(dirname "$0")/.."
VERSION=0.17.5
CACHE=${RUFF_WHEEL_CACHE:-.build/wheels}
BIN=.build/ruff/ruff-$VERSION

case "$(uname -m)" in
    x86_64) PLATFORM=manylinux_2_17_x86_64
            SHA256=40ca8afaac309b41a5b2e09e4e7beb1f824826b93c25697c4d74f573324fba4e ;;
    aarch64|arm64) PLATFORM=manylinux_2_17_aarch64
            SHA256=6f6a7b138edf9cc402ca736a59d9525e6d766e5395760b72e7e146e6251ac963 ;;
    *) echo "ruff: no pinned wheel for $(uname -m)" >&2
       exit 1 ;;
esac
WHEEL=ruff-$VERSION-py3-none-$PLATFORM.manylinux2014_${PLATFORM#manylinux_2_17_}.whl

if [ ! -x "$BIN" ]; then
    mkdir -p "$CACHE" .build/ruff
    [ -f "$CACHE/$WHEEL" ] || python3 -m pip download --quiet --no-deps --only-binary=:all: \
        --platform "$PLATFORM" --python-version 3.11 -d "$CACHE" "ruff==$VERSION"
    # A wheel that fails the check is deleted, so the next run downloads it again.
    echo "$SHA256  $CACHE/$WHEEL" | sha256sum -c --quiet - || { rm -f "$CACHE/$WHEEL"; exit 1; }
    unzip -o -j -q "$CACHE/$WHEEL" "ruff-$VERSION.data/scripts/ruff" -d .build/ruff
    mv .build/ruff/ruff "$BIN"
    chmod +x "$BIN"
fi
exec "$BIN" "$@"
