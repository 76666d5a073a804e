"""The Home Assistant commands of bench/home/commands.txt as a corpus in the dev corpus's form
("susi <command>" files, clean and in pink noise, manifest.jsonl), spoken by the dev corpus's
eSpeak NG voices only (no flite or Festival voice).

usage: DEV_CORPUS=.../dev-corpus.py python3 bench/home-corpus.py [--heldout] OUTDIR
--heldout: said by the held-out voices of bench/heldout.py instead.
"""
import os
import sys

from devcorpus import choose_voices, dev

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    choose_voices(sys.argv)
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    dev.check_tools()
    with open(os.path.join(HERE, "home", "commands.txt")) as f:
        commands = [("home", line.strip()) for line in f if line.strip()]
    dev.build(sys.argv[1], commands)


if __name__ == "__main__":
    main()
