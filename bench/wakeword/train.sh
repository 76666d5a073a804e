#!/usr/bin/env bash
# Rebuilds the neural wake word's training data and trains its head:
#   bench/wakeword/train.sh [PHRASE]      (default "susi"; `make wakeword PHRASE="hey computer"`)
# Writes models/hotword/<phrase>.head.json (spaces become "-"; for "susi" the trained head joined
# with bench/wakeword/susi.base.head.json and susi.third.head.json); the data, the venv and the logs
# stay in bench/out/wakeword/<phrase>/ (not in git). Data sizes: DATA_ARGS (see data.py --help;
# the defaults: 1,600 training and 1,200 validation phrases, 10.2 h and 0.5 h of negatives, two
# worker processes; models/hotword/README.md).
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
# round, which cannot be made again bit for bit) gets it joined with the head trained now and,
# if there is one, a third head kept in git: a window must look like the phrase to each. For
# "susi" the third is this recipe's head trained on 2026-12-04 on a machine with more packages
# installed (other texts, so other shards). On a machine with only `make deps`' packages the
# head trained now has the networks of susi.second.head.json (checked below), and the joined
# head is the committed one, at its thresholds 0.04 and sure 0.62 (models/hotword/README.md).
if [ -f "$NAME.base.head.json" ]; then
    THIRD=$([ -f "$NAME.third.head.json" ] && echo "$NAME.third.head.json" || true)
    POINT=$([ "$NAME" = susi ] && echo "--threshold 0.04 --sure 0.62" || true)
    ../../$VENV/bin/python combine.py "../../$WORK" "../../models/hotword/$NAME.head.json" "$NAME.base.head.json" \
        "../../$WORK/trained.head.json" $THIRD --match-first $POINT 2>&1 | tee "../../$WORK/combine.log"
    if [ -f "$NAME.second.head.json" ]; then
        ../../$VENV/bin/python -c "import json, sys
same = json.load(open(sys.argv[1]))['members'] == json.load(open(sys.argv[2]))['members']
print(('the head trained here has the networks of ' if same else 'the head trained here differs from ') + sys.argv[2]
      + ('' if same else ' (other texts? data.py prints their digest)'))" "../../$WORK/trained.head.json" "$NAME.second.head.json"
    fi
else
    cp "../../$WORK/trained.head.json" "../../models/hotword/$NAME.head.json"
fi
