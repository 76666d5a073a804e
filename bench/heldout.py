#!/usr/bin/env python3
"""Held-out check corpus: the dev corpus's commands, said by voices and mixed with noise the
dev corpus does not use, so that settings tuned on the dev corpus can be checked on speech
they were not tuned on.

usage: heldout.py OUTDIR [--negatives]
  Writes OUTDIR/manifest.jsonl (conditions clean, brown20, brown10) in the dev corpus's
  format, or with --negatives OUTDIR/negatives.jsonl: 10 minutes of GPL-3 text read by
  two held-out voices.
Needs what dev-corpus.py needs (espeak-ng, flite, sox) and its path in DEV_CORPUS or at
../shared/tools/dev-corpus.py from the repository.
"""
import json, os, subprocess, sys

from devcorpus import dev

# Other eSpeak NG accents and variants, and the other flite voices: none is in the dev corpus.
dev.VOICES = {
    "espeak-rp": ["espeak-ng", "-v", "en-gb-x-rp", "-w", "{out}", "{text}"],
    "espeak-nyc-f2": ["espeak-ng", "-v", "en-us-nyc+f2", "-w", "{out}", "{text}"],
    "espeak-gbcwmd-m4": ["espeak-ng", "-v", "en-gb-x-gbcwmd+m4", "-s", "160", "-w", "{out}", "{text}"],
    "flite-awb": ["flite", "-voice", "awb", "-t", "{text}", "-o", "{out}"],
    "flite-rms": ["flite", "-voice", "rms", "-t", "{text}", "-o", "{out}"],
}
dev.CONDITIONS = [("clean", None), ("brown20", 20.0), ("brown10", 10.0)]


def brown(n, seed):
    """Brown noise instead of the dev corpus's pink (the build calls it `pink`)."""
    tmp = f"/tmp/heldout-noise-{os.getpid()}-{seed}.wav"
    subprocess.run(["sox", "-V1", "-R", "-n", "-r", str(dev.RATE), "-c", "1", "-b", "16", tmp,
                    "synth", f"{n / dev.RATE:.3f}", "brownnoise"], check=True)
    a = dev.read(tmp)
    os.remove(tmp)
    return a[:n] + dev.array.array("h", [0] * max(0, n - len(a)))


dev.pink = brown


def negatives(outdir, minutes_per_voice=5):
    os.makedirs(outdir, exist_ok=True)
    words = open("/usr/share/common-licenses/GPL-3").read().split()
    per = 160 * minutes_per_voice
    rows = []
    for k, voice in enumerate(["espeak-rp", "flite-awb"]):
        samples = dev.synth(voice, " ".join(words[k * per:(k + 1) * per]), os.path.join(outdir, "_n.wav"))
        path = os.path.join(outdir, f"negative-{voice}.wav")
        dev.write(path, samples)
        rows.append(dict(file=path, voice=voice, seconds=len(samples) / dev.RATE))
    with open(os.path.join(outdir, "negatives.jsonl"), "w") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        sys.exit(__doc__)
    dev.check_tools()
    if "--negatives" in sys.argv:
        negatives(sys.argv[1])
    else:
        dev.build(sys.argv[1], dev.COMMANDS)
