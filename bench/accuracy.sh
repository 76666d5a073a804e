#!/bin/sh
# Accuracy benchmark: this project's wake word and recogniser (through the SusiSpeech
# factory) side by side with the stock PocketSphinx setup, on the dev corpus and on the
# held-out check corpus of bench/heldout.py (other voices and noise); the wake word engines
# (neural, neural + verifier, keyphrase, stock) side by side in one run (--wake-compare).
#
#   bench/accuracy.sh [--every N]      (N: keep every Nth command group, for a quicker run)
#
# Needs espeak-ng, flite, sox and pocketsphinx (apt-get install espeak-ng flite sox
# pocketsphinx pocketsphinx-en-us). Writes bench/RESULTS.md; everything else goes to
# bench/out/ (not in git), where the corpus is cached between runs.
set -eu
cd "$(dirname "$0")/.."
OUT=bench/out
# The Makefile's release build flags, read from it when run alone: one build in .build/release.
RELEASE_FLAGS=${RELEASE_FLAGS-$(sed -n 's/^export RELEASE_FLAGS = //p' Makefile)}
MODEL=${SUSI_SPHINX_MODEL_DIR:-/usr/share/pocketsphinx/model/en-us}
CORPUS_TOOL=${DEV_CORPUS:-$(cd .. && pwd)/shared/tools/dev-corpus.py}
mkdir -p "$OUT"

[ -f "$OUT/corpus/manifest.jsonl" ] || (cd "$OUT" && python3 "$CORPUS_TOOL" corpus)
[ -f "$OUT/negatives/negatives.jsonl" ] || (cd "$OUT" && python3 "$CORPUS_TOOL" negatives --negatives)
# The held-out check: other voices and noise (bench/heldout.py), never used for tuning.
[ -f "$OUT/heldout/manifest.jsonl" ] || (cd "$OUT" && DEV_CORPUS="$CORPUS_TOOL" python3 ../heldout.py heldout)
[ -f "$OUT/heldout-negatives/negatives.jsonl" ] ||
    (cd "$OUT" && DEV_CORPUS="$CORPUS_TOOL" python3 ../heldout.py heldout-negatives --negatives)
# The neural wake word's false wakes are counted on 5 hours of held-out speech (the 35 minutes
# above and more text and voices the wake word never trained on; the other engines, slower,
# keep the 35 minutes).
[ -f "$OUT/heldout-negatives-5h/negatives.jsonl" ] ||
    (cd "$OUT" && DEV_CORPUS="$CORPUS_TOOL" python3 ../heldout.py heldout-negatives-5h --negatives --hours 5)
# Conversation: two voices taking turns over a room's noise; false wakes only, nothing tuned on it.
[ -f "$OUT/conversation/negatives.jsonl" ] ||
    (cd "$OUT" && DEV_CORPUS="$CORPUS_TOOL" python3 ../heldout.py conversation --conversation --hours 3)
# Single words after pauses, words the wake word's training never says; false wakes only.
[ -f "$OUT/words/negatives.jsonl" ] ||
    (cd "$OUT" && DEV_CORPUS="$CORPUS_TOOL" python3 ../heldout.py words --words --hours 1)
# Commands alone after quiet (false wakes at a command's onset).
[ -f "$OUT/heldout-commands/manifest.jsonl" ] ||
    (cd "$OUT" && DEV_CORPUS="$CORPUS_TOOL" python3 ../heldout.py heldout-commands --commands)
# The wake word in one breath with the command, at six speaking rates.
[ -f "$OUT/breath/manifest.jsonl" ] || DEV_CORPUS="$CORPUS_TOOL" python3 bench/one-breath.py "$OUT/breath" >/dev/null
# The name after other words in the same breath ("hey susi ...", "let me just ask susi ...").
[ -f "$OUT/after-speech/manifest.jsonl" ] ||
    DEV_CORPUS="$CORPUS_TOOL" python3 bench/one-breath.py --after-speech "$OUT/after-speech" >/dev/null

# The stock setup the older SUSI speaker used: generic en-us model, cmudict, keyphrase
# "susi" at 1e-20, PocketSphinx's own defaults otherwise; one pocketsphinx_batch run each.
# stock CORPUS NEGATIVES PREFIX writes PREFIX-commands.hyp, PREFIX-wake.hyp, PREFIX-negatives.hyp.
STOCK="-adcin yes -adchdr 44 -cepext .wav -hmm $MODEL/en-us -dict $MODEL/cmudict-en-us.dict"
stock() {
    python3 - "$1" "$2" "$3" <<'PY'
import json, sys, os
corpus, negatives, prefix = sys.argv[1:]
rows = [json.loads(l) for l in open(os.path.join(corpus, "manifest.jsonl"))]
with open(prefix + "-commands.ctl", "w") as f:
    for r in rows:
        # Same audio as ours: from 150 ms before the command to the end of the file.
        f.write(f"{r['id']} {max(0, (r['command_start_ms'] - 150) // 10)} 100000 {r['id']}\n")
with open(prefix + "-wake.ctl", "w") as f:
    for r in rows:
        f.write(r["id"] + "\n")
with open(prefix + "-negatives.ctl", "w") as f:
    for l in open(os.path.join(negatives, "negatives.jsonl")):
        f.write(os.path.splitext(os.path.basename(json.loads(l)["file"]))[0] + "\n")
PY
    if [ ! -f "$3-commands.hyp" ]; then
        pocketsphinx_batch $STOCK -cepdir "$1" -ctl "$3-commands.ctl" -lm "$MODEL/en-us.lm.bin" \
            -hyp "$3-commands.hyp" > "$3-commands.log" 2>&1
    fi
    if [ ! -f "$3-wake.hyp" ]; then
        pocketsphinx_batch $STOCK -cepdir "$1" -ctl "$3-wake.ctl" -keyphrase susi -kws_threshold 1e-20 \
            -hyp "$3-wake.hyp" > "$3-wake.log" 2>&1
    fi
    if [ ! -f "$3-negatives.hyp" ]; then
        pocketsphinx_batch $STOCK -cepdir "$2" -ctl "$3-negatives.ctl" -keyphrase susi \
            -kws_threshold 1e-20 -hyp "$3-negatives.hyp" > "$3-negatives.log" 2>&1
    fi
}
stock "$OUT/corpus" "$OUT/negatives" "$OUT/stock"
stock "$OUT/heldout" "$OUT/heldout-negatives" "$OUT/heldout-stock"

swift build -c release $RELEASE_FLAGS --scratch-path "${SCRATCH:-.build}" --product susi-bench >/dev/null
"${SCRATCH:-.build}/release/susi-bench" --corpus "$OUT/corpus" --negatives "$OUT/negatives" \
    --cache "$OUT/cache" --stock "$OUT/stock" --dump "$OUT/transcripts.tsv" \
    --heldout-corpus "$OUT/heldout" --heldout-negatives "$OUT/heldout-negatives" \
    --heldout-stock "$OUT/heldout-stock" --breath-corpus "$OUT/breath" --after-speech-corpus "$OUT/after-speech" \
    --commands-only "$OUT/heldout-commands" \
    --wake-negatives "$OUT/heldout-negatives-5h" --conversation-negatives "$OUT/conversation" \
    --word-negatives "$OUT/words" --wake-compare --results bench/RESULTS.md "$@"
