#!/usr/bin/env bash
# Rebuilds the neural wake word's training data and trains its head:
#   bench/wakeword/train.sh [PHRASE]      (default "susi"; `make wakeword PHRASE="hey computer"`)
# Writes models/hotword/<phrase>.head.json (spaces become "-"; for "susi" the trained head joined
# with bench/wakeword/susi.base.head.json and susi.second.head.json); the data, the venv and the logs
# stay in bench/out/wakeword/<phrase>/ (not in git). Data sizes: DATA_ARGS (see data.py --help;
# the defaults: 1,600 training and 1,200 validation phrases, 10.2 h and 0.5 h of negatives, no
# near-miss shards, two worker processes; models/hotword/README.md).
# Needs the front end (`make frontend`), espeak-ng, flite, sox and python3 with venv.
set -euo pipefail
cd "$(dirname "$0")/../.."
PHRASE=${1:-susi}
NAME=$(echo "$PHRASE" | tr 'A-Z ' 'a-z-')
WORK=bench/out/wakeword/$NAME
VENV=bench/out/wakeword/venv
mkdir -p "$WORK"
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check -r bench/wakeword/requirements.txt
fi
[ -f models/hotword/frontend/embedding_model.tflite ] || scripts/wake-frontend.sh
cd bench/wakeword
# One thread: the machine is shared, and small matrices gain little from more.
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
# Each shard has its own seed: shards already written are kept, the rest are made.
../../$VENV/bin/python data.py "../../$WORK" "$PHRASE" ${DATA_ARGS:-} 2>&1 | tee -a "../../$WORK/data.log"
../../$VENV/bin/python train.py "../../$WORK" "$PHRASE" "../../$WORK/trained.head.json" 2>&1 |
    tee "../../$WORK/train.log"
# A phrase with a base head here (the "susi" head of the recipe before 2026-12-01's third
# round) and a second one (the third round's head, trained on shards made before sox ran with
# -R), neither of which can be made again bit for bit, gets them joined with the new one: a
# window must look like the phrase to each, with thresholds that find every validation group
# at least as often as the base head does (combine.py --match-first), and for "susi" the
# two-head join's sure threshold, 0.62 (models/hotword/README.md).
if [ -f "$NAME.base.head.json" ]; then
    SECOND=$([ -f "$NAME.second.head.json" ] && echo "$NAME.second.head.json" || true)
    SURE=$([ "$NAME" = susi ] && echo "--sure 0.62" || true)
    ../../$VENV/bin/python combine.py "../../$WORK" "../../models/hotword/$NAME.head.json" "$NAME.base.head.json" \
        $SECOND "../../$WORK/trained.head.json" --match-first $SURE 2>&1 | tee "../../$WORK/combine.log"
else
    cp "../../$WORK/trained.head.json" "../../models/hotword/$NAME.head.json"
fi
