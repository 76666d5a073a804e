#!/usr/bin/env python3
"""Wake word said in one breath with the command, at six speaking rates.

usage: one-breath.py OUTDIR

The dev and held-out corpora synthesise "susi" on its own, so it comes out slow and whole.
Here eSpeak NG says "susi <command>" as one sentence at 150 to 300 words per minute (its
default is 175), by four voices (en-us, en-029, en-gb-x-rp, en-us-nyc+f2), with a faint
noise floor. Writes OUTDIR/manifest.jsonl in the dev corpus's format; the condition is the
rate ("wpm150"). The wake word starts at 500 ms; where the command starts is not known, so
command_start_ms is set 500 ms after it (a detection counts up to 600 ms later).
Needs espeak-ng and sox, and dev-corpus.py (see devcorpus.py).
"""
import json, os, random, sys

from devcorpus import dev

VOICES = ["en-us", "en-029", "en-gb-x-rp", "en-us-nyc+f2"]
SPEEDS = [150, 175, 200, 230, 260, 300]
COMMANDS = ["what time is it", "tell me a joke", "play some rock music", "set volume to fifty"]


def main():
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rnd = random.Random(11)
    rows = []
    for voice in VOICES:
        for speed in SPEEDS:
            for k, command in enumerate(COMMANDS):
                uid = f"{voice.replace('+', '-')}-{speed}-{k}"
                path = os.path.join(out, uid + ".wav")
                dev.VOICES[uid] = ["espeak-ng", "-v", voice, "-s", str(speed), "-w", "{out}", "{text}"]
                speech = dev.trim(dev.synth(uid, "susi " + command, path))
                padded = dev.silence(0.5) + speech + dev.silence(1.0)
                dev.write(path, dev.array.array("h", (max(-32768, min(32767, s + rnd.randint(-30, 30))) for s in padded)))
                rows.append(dict(id=uid, file=path, voice=voice, condition=f"wpm{speed}", intent="",
                                 text=command, wake_ms=500, command_start_ms=1000,
                                 speech_end_ms=500 + len(speech) * 1000 // dev.RATE))
    with open(os.path.join(out, "manifest.jsonl"), "w") as f:
        f.writelines(json.dumps(r) + "\n" for r in rows)
    print(f"{len(rows)} files in {out}")


if __name__ == "__main__":
    main()
