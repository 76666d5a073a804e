#!/bin/sh
# Makes the virtualenv that mpv's ytdl hook runs yt-dlp from (Debian 12's yt-dlp is too old for
# YouTube): yt-dlp, its YouTube JavaScript (yt-dlp-ejs) and the JavaScript runtime that runs it
# (Deno; Debian 12's nodejs 18 is older than the Node 20 yt-dlp needs), each pinned by the
# Makefile's version and sha256 and installed with pip's --require-hashes. Nothing is committed.
#
#   scripts/yt-dlp-venv.sh DIR            create or fix DIR (idempotent)
#   scripts/yt-dlp-venv.sh DIR --refresh  upgrade yt-dlp and yt-dlp-ejs in DIR to PyPI's newest
#
# The pins come from the environment (the Makefile exports them): YTDLP_VERSION, YTDLP_SHA256,
# YTDLP_EJS_VERSION, YTDLP_EJS_SHA256, DENO_VERSION, DENO_SHA256_X86_64, DENO_SHA256_AARCH64.
set -eu
DIR=${1:?usage: yt-dlp-venv.sh DIR [--refresh]}
MODE=${2:-}

if [ "$MODE" = --refresh ]; then
    [ -x "$DIR/bin/pip" ] || { echo "yt-dlp: no virtualenv in $DIR (make deps first)" >&2; exit 1; }
    # YouTube changes often; the newest release is what keeps it playing.
    "$DIR/bin/pip" install --quiet --disable-pip-version-check --upgrade --no-deps yt-dlp yt-dlp-ejs
    echo "yt-dlp: $("$DIR/bin/yt-dlp" --version) in $DIR"
    exit 0
fi

case "$(uname -m)" in
    x86_64) DENO_SHA256=$DENO_SHA256_X86_64 ;;
    aarch64|arm64) DENO_SHA256=$DENO_SHA256_AARCH64 ;;
    *) DENO_SHA256="" ;;
esac

# The pinned release or a newer one (from --refresh) is kept: a refresh must survive the next
# `make deps` or `make install`.
CURRENT=$("$DIR/bin/yt-dlp" --version 2>/dev/null || true)
if [ -n "$CURRENT" ] && [ "$(printf '%s\n%s\n' "$YTDLP_VERSION" "$CURRENT" | sort -V | head -n 1)" = "$YTDLP_VERSION" ] \
    && { [ -z "$DENO_SHA256" ] || [ -x "$DIR/bin/deno" ]; }; then
    echo "yt-dlp: $CURRENT present in $DIR"
    exit 0
fi

[ -x "$DIR/bin/pip" ] || python3 -m venv "$DIR"
REQUIREMENTS=$(mktemp)
trap 'rm -f "$REQUIREMENTS"' EXIT
{
    echo "yt-dlp==$YTDLP_VERSION --hash=sha256:$YTDLP_SHA256"
    echo "yt-dlp-ejs==$YTDLP_EJS_VERSION --hash=sha256:$YTDLP_EJS_SHA256"
    [ -n "$DENO_SHA256" ] && echo "deno==$DENO_VERSION --hash=sha256:$DENO_SHA256"
} >"$REQUIREMENTS"
[ -n "$DENO_SHA256" ] || echo "yt-dlp: no Deno wheel for $(uname -m); YouTube may need a JavaScript runtime" >&2
"$DIR/bin/pip" install --quiet --disable-pip-version-check --no-deps --only-binary=:all: --require-hashes \
    -r "$REQUIREMENTS"
echo "yt-dlp: $("$DIR/bin/yt-dlp" --version) in $DIR"
