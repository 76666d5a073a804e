#!/bin/sh
# Accuracy benchmark: this project's wake word and recogniser (through the SusiSpeech
# factory) side by side with the stock PocketSphinx setup, on the dev corpus.
#
#   bench/accuracy.sh [--every N]      (N: keep every Nth command group, for a quicker run)
#
# Needs espeak-ng, flite, sox and pocketsphinx (apt-get install espeak-ng flite sox
# pocketsphinx pocketsphinx-en-us). Writes bench/RESULTS.md; everything else goes to
# bench/out/ (not in git), where the corpus is cached between runs.
set -eu
cd "$(dirname "$0")/.."
OUT=bench/out
MODEL=${SUSI_SPHINX_MODEL_DIR:-/usr/share/pocketsphinx/model/en-us}
CORPUS_TOOL=${DEV_CORPUS:-$(cd .. && pwd)/shared/tools/dev-corpus.py}
mkdir -p "$OUT"

[ -f "$OUT/corpus/manifest.jsonl" ] || (cd "$OUT" && python3 "$CORPUS_TOOL" corpus)
[ -f "$OUT/negatives/negatives.jsonl" ] || (cd "$OUT" && python3 "$CORPUS_TOOL" negatives --negatives)

# The stock setup the older SUSI speaker used: generic en-us model, cmudict, keyphrase
# "susi" at 1e-20, PocketSphinx's own defaults otherwise; one pocketsphinx_batch run each.
python3 - "$OUT" <<'PY'
import json, sys, os
out = sys.argv[1]
rows = [json.loads(l) for l in open(os.path.join(out, "corpus/manifest.jsonl"))]
with open(os.path.join(out, "stock-commands.ctl"), "w") as f:
    for r in rows:
        # Same audio as ours: from 150 ms before the command to the end of the file.
        f.write(f"{r['id']} {max(0, (r['command_start_ms'] - 150) // 10)} 100000 {r['id']}\n")
with open(os.path.join(out, "stock-wake.ctl"), "w") as f:
    for r in rows:
        f.write(r["id"] + "\n")
with open(os.path.join(out, "stock-negatives.ctl"), "w") as f:
    for l in open(os.path.join(out, "negatives/negatives.jsonl")):
        f.write(os.path.splitext(os.path.basename(json.loads(l)["file"]))[0] + "\n")
PY
STOCK="-adcin yes -adchdr 44 -cepext .wav -hmm $MODEL/en-us -dict $MODEL/cmudict-en-us.dict"
if [ ! -f "$OUT/stock-commands.hyp" ]; then
    pocketsphinx_batch $STOCK -cepdir "$OUT/corpus" -ctl "$OUT/stock-commands.ctl" -lm "$MODEL/en-us.lm.bin" \
        -hyp "$OUT/stock-commands.hyp" > "$OUT/stock-commands.log" 2>&1
fi
if [ ! -f "$OUT/stock-wake.hyp" ]; then
    pocketsphinx_batch $STOCK -cepdir "$OUT/corpus" -ctl "$OUT/stock-wake.ctl" -keyphrase susi -kws_threshold 1e-20 \
        -hyp "$OUT/stock-wake.hyp" > "$OUT/stock-wake.log" 2>&1
fi
if [ ! -f "$OUT/stock-negatives.hyp" ]; then
    pocketsphinx_batch $STOCK -cepdir "$OUT/negatives" -ctl "$OUT/stock-negatives.ctl" -keyphrase susi \
        -kws_threshold 1e-20 -hyp "$OUT/stock-negatives.hyp" > "$OUT/stock-negatives.log" 2>&1
fi

swift build -c release --scratch-path "${SCRATCH:-.build}" --product susi-bench >/dev/null
"${SCRATCH:-.build}/release/susi-bench" --corpus "$OUT/corpus" --negatives "$OUT/negatives" \
    --cache "$OUT/cache" --stock-commands "$OUT/stock-commands.hyp" --stock-wake "$OUT/stock-wake.hyp" \
    --stock-wake-negatives "$OUT/stock-negatives.hyp" --dump "$OUT/transcripts.tsv" \
    --results bench/RESULTS.md "$@"
