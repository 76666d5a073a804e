#!/usr/bin/env python3
"""The alarm, reminder and list commands (issue 53) as a dev-corpus set: bench/planner-commands.tsv
("intent<TAB>command"), said after "susi" by the dev corpus's eSpeak NG voices (en-us, en-gb+f3,
en-gb-scotland at 150 wpm, en-029+m3; its flite voice is left out), clean and in pink noise 20 and
10 dB down, as dev-corpus.py makes its files. Writes OUTDIR/manifest.jsonl in the dev corpus's format.

usage: planner-corpus.py [--heldout] OUTDIR
--heldout: said by the held-out voices of bench/heldout.py instead.
Then: susi-bench --corpus OUTDIR --only stt [--set intent=actions] (bench/PERFORMANCE.md).
Needs espeak-ng and sox, and dev-corpus.py (see devcorpus.py).
"""
import os, sys

from devcorpus import choose_voices, dev

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    choose_voices(sys.argv)
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        sys.exit(__doc__)
    with open(os.path.join(HERE, "planner-commands.tsv")) as f:
        commands = [tuple(line.rstrip("\n").split("\t", 1)) for line in f if "\t" in line]
    dev.build(sys.argv[1], commands)


if __name__ == "__main__":
    main()
