#!/bin/sh
# Home Assistant commands through the recogniser: bench/home/commands.txt spoken by the dev
# corpus's eSpeak NG voices, clean and in pink noise (bench/home-corpus.py), recognised with the
# language model `susi run` builds when it knows the fixed home of bench/home/names.json, and
# judged by the action the brain makes of each reading (susi-bench --home, HomeBenchmark).
#
#   bench/home-assistant.sh
#
# Needs espeak-ng and sox. The corpus is cached in bench/out/home (not in git).
set -eu
cd "$(dirname "$0")/.."
OUT=bench/out
CORPUS_TOOL=${DEV_CORPUS:-$(cd .. && pwd)/shared/tools/dev-corpus.py}
RELEASE_FLAGS=${RELEASE_FLAGS-$(sed -n 's/^export RELEASE_FLAGS = //p' Makefile)}
mkdir -p "$OUT"
[ -f "$OUT/home/manifest.jsonl" ] || DEV_CORPUS="$CORPUS_TOOL" python3 bench/home-corpus.py "$OUT/home"
swift build -c release $RELEASE_FLAGS --scratch-path "${SCRATCH:-.build}" --product susi-bench >/dev/null
"${SCRATCH:-.build}/release/susi-bench" --home "$OUT/home" --home-names bench/home/names.json
