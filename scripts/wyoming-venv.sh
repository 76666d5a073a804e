#!/bin/sh
# Makes the virtualenv the satellite tests run Home Assistant's side of the Wyoming protocol
# from: the PyPI package wyoming (rhasspy/wyoming, the protocol's reference implementation),
# pinned by the Makefile's version and sha256 and installed with pip's --require-hashes. It has
# no dependencies. Nothing is committed, and `susi` itself never uses it.
#
#   scripts/wyoming-venv.sh DIR     create or fix DIR (idempotent)
#
# The pins come from the environment (the Makefile exports them): WYOMING_VERSION, WYOMING_SHA256.
set -eu
DIR=${1:?usage: wyoming-venv.sh DIR}

CURRENT=$("$DIR/bin/python" -c 'from importlib.metadata import version; print(version("wyoming"))' 2>/dev/null || true)
if [ "$CURRENT" = "$WYOMING_VERSION" ]; then
    echo "wyoming: $CURRENT present in $DIR"
    exit 0
fi

[ -x "$DIR/bin/pip" ] || python3 -m venv "$DIR"
REQUIREMENTS=$(mktemp)
trap 'rm -f "$REQUIREMENTS"' EXIT
echo "wyoming==$WYOMING_VERSION --hash=sha256:$WYOMING_SHA256" >"$REQUIREMENTS"
"$DIR/bin/pip" install --quiet --disable-pip-version-check --no-deps --only-binary=:all: --require-hashes \
    -r "$REQUIREMENTS"
echo "wyoming: $WYOMING_VERSION in $DIR"
