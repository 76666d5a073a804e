#!/bin/sh
# Fetches the neural wake word's front end: the TensorFlow Lite C library and openWakeWord's
# melspectrogram and speech-embedding models, taken from the pinned PyPI wheel
# pyopen-wakeword (checked against its sha256). Only those three files are extracted into
# DIR (default models/hotword/frontend); the wheel's own wake-word models (non-commercial
# licences) are never unpacked, and nothing is installed into Python.
#
#   scripts/wake-frontend.sh [DIR]
set -eu
cd "$(dirname "$0")/.."
DIR=${1:-models/hotword/frontend}
VERSION=1.1.0
case "$(uname -m)" in
    x86_64) PLATFORM=manylinux_2_35_x86_64
            SHA256=754347a59de2b3d378a0cbc404a8b41164036e74fa1c185f88056974e4bfb6b4 ;;
    aarch64|arm64) PLATFORM=manylinux_2_35_aarch64
            SHA256=32a865123ebcc270ce6408b675456c3aecd8a6f0ddfe6311680616c9c01f990a ;;
    *) echo "wake-frontend: no pyopen-wakeword wheel for $(uname -m); the wake word falls back to pocketsphinx" >&2
       exit 0 ;;
esac
FILES="libtensorflowlite_c.so melspectrogram.tflite embedding_model.tflite"
present=yes
for f in $FILES; do [ -f "$DIR/$f" ] || present=no; done
[ "$present" = yes ] && { echo "wake-frontend: present in $DIR"; exit 0; }

WHEEL=pyopen_wakeword-$VERSION-py3-none-$PLATFORM.whl
CACHE=${WAKE_WHEEL_CACHE:-.build/wheels}
mkdir -p "$CACHE" "$DIR"
if [ ! -f "$CACHE/$WHEEL" ]; then
    python3 -m pip download --quiet --no-deps --only-binary=:all: --platform "$PLATFORM" \
        --python-version 3.11 "pyopen-wakeword==$VERSION" -d "$CACHE"
fi
echo "$SHA256  $CACHE/$WHEEL" | sha256sum -c --quiet - || { rm -f "$CACHE/$WHEEL"; exit 1; }
unzip -o -j -q "$CACHE/$WHEEL" pyopen_wakeword/lib/libtensorflowlite_c.so \
    pyopen_wakeword/models/melspectrogram.tflite pyopen_wakeword/models/embedding_model.tflite -d "$DIR"
echo "wake-frontend: $FILES in $DIR"
