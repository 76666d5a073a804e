#!/bin/sh
# Makes the virtualenv the real-Home-Assistant test starts Home Assistant Core from
# (Tests/SusiSpeakerTests/RealHomeAssistantTests.swift): homeassistant pinned by the Makefile's
# version and sha256 (HA_VERSION, HA_SHA256; installed with pip's --require-hashes), then its
# dependencies and the few packages its always-loaded integrations need (frontend, recorder,
# backup, ...), pinned by version, so that `hass --skip-pip` installs nothing at run time.
# About 200 MB from PyPI; not part of `make deps` or `make test`. Nothing is committed.
#
#   scripts/home-assistant-venv.sh DIR     create DIR (idempotent)
#
# 2024.3.3 is the last release that runs on Python 3.11 (Debian 12's): 2024.4 needs 3.12.
set -eu
DIR=${1:?usage: home-assistant-venv.sh DIR}
: "${HA_VERSION:?set HA_VERSION (the Makefile exports it)}" "${HA_SHA256:?set HA_SHA256}"

if [ -x "$DIR/bin/hass" ] && [ "$("$DIR/bin/python" -c 'import homeassistant.const as c; print(c.__version__)' 2>/dev/null)" = "$HA_VERSION" ]; then
    echo "home-assistant: $HA_VERSION present in $DIR"
    exit 0
fi
[ -x "$DIR/bin/pip" ] || python3 -m venv "$DIR"
REQUIREMENTS=$(mktemp)
trap 'rm -f "$REQUIREMENTS"' EXIT
echo "homeassistant==$HA_VERSION --hash=sha256:$HA_SHA256" >"$REQUIREMENTS"
PIP="$DIR/bin/pip --quiet --disable-pip-version-check"
$PIP install --no-deps --only-binary=:all: --require-hashes -r "$REQUIREMENTS"
# Its own dependencies (pinned by the wheel), and what the integrations it always loads need,
# at the versions their manifests name (josepy below 2 for the cloud integration's acme).
$PIP install "homeassistant==$HA_VERSION" Pillow==10.2.0 janus==1.0.0 psutil-home-assistant==0.0.1 \
    securetar==2024.2.1 home-assistant-frontend==20240307.0 josepy==1.15.0 SQLAlchemy==2.0.27 fnv-hash-fast==0.5.0
echo "home-assistant: $("$DIR/bin/python" -c 'import homeassistant.const as c; print(c.__version__)') in $DIR"
