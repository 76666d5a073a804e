"""The Home Assistant commands of bench/home/commands.txt as a corpus in the dev corpus's form
("susi <command>" files, clean and in pink noise, manifest.jsonl), spoken by the dev corpus's
eSpeak NG voices only (no flite or Festival voice).

usage: DEV_CORPUS=.../dev-corpus.py python3 bench/home-corpus.py OUTDIR
"""
import os
import sys

from devcorpus import dev

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    dev.check_tools()
    dev.VOICES = {name: argv for name, argv in dev.VOICES.items() if name.startswith("espeak-")}
    with open(os.path.join(HERE, "home", "commands.txt")) as f:
        commands = [("home", line.strip()) for line in f if line.strip()]
    dev.build(sys.argv[1], commands)


if __name__ == "__main__":
    main()
