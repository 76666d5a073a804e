#!/usr/bin/env python3
"""Wake word said in one breath with the command, at six speaking rates.

usage: one-breath.py [--after-speech] OUTDIR

The dev and held-out corpora synthesise "susi" on its own, so it comes out slow and whole.
Here eSpeak NG says "susi <command>" as one sentence at 150 to 300 words per minute (its
default is 175), by four voices (en-us, en-029, en-gb-x-rp, en-us-nyc+f2), with a faint
noise floor. Writes OUTDIR/manifest.jsonl in the dev corpus's format; the condition is the
rate ("wpm150"). The wake word starts at 500 ms; where the command starts is not known, so
command_start_ms is set 500 ms after it (a detection counts up to 600 ms later).
With --after-speech the name follows other words in the same breath: "<lead-in> susi
<command>" as one sentence (LEAD_INS: a short word, or a few words) at 175 and 230 wpm; the
condition is the lead-in's length ("lead1", "lead4"), and the wake word is taken to start
where the lead-in said alone ends.
Needs espeak-ng and sox, and dev-corpus.py (see devcorpus.py).
"""
import json, os, random, sys

from devcorpus import dev

VOICES = ["en-us", "en-029", "en-gb-x-rp", "en-us-nyc+f2"]
SPEEDS = [150, 175, 200, 230, 260, 300]
COMMANDS = ["what time is it", "tell me a joke", "play some rock music", "set volume to fifty"]
LEAD_INS = ["hey", "okay", "um", "so I asked her", "let me just ask", "and now I will say"]


def main():
    args = sys.argv[1:]
    after_speech = "--after-speech" in args
    args = [a for a in args if a != "--after-speech"]
    if len(args) != 1 or args[0].startswith("-"):
        sys.exit(__doc__)
    out = args[0]
    os.makedirs(out, exist_ok=True)
    rnd = random.Random(11)
    rows = []
    for voice in VOICES:
        for speed in [175, 230] if after_speech else SPEEDS:
            for k, command in enumerate(COMMANDS):
                leads = [LEAD_INS[(k + j) % len(LEAD_INS)] for j in (0, 3)] if after_speech else [""]
                for lead in leads:
                    uid = f"{voice.replace('+', '-')}-{speed}-{k}" + (f"-{len(lead.split())}" if lead else "")
                    path = os.path.join(out, uid + ".wav")
                    dev.VOICES[uid] = ["espeak-ng", "-v", voice, "-s", str(speed), "-w", "{out}", "{text}"]
                    # Where the name starts: where the lead-in said alone ends.
                    before = len(dev.trim(dev.synth(uid, lead, path))) if lead else 0
                    speech = dev.trim(dev.synth(uid, " ".join(filter(None, [lead, "susi", command])), path))
                    padded = dev.silence(0.5) + speech + dev.silence(1.0)
                    noisy = (max(-32768, min(32767, s + rnd.randint(-30, 30))) for s in padded)
                    dev.write(path, dev.array.array("h", noisy))
                    wake = 500 + before * 1000 // dev.RATE
                    condition = f"lead{len(lead.split())}" if lead else f"wpm{speed}"
                    rows.append(dict(id=uid, file=path, voice=voice, condition=condition, intent="",
                                     text=command, wake_ms=wake, command_start_ms=wake + 500,
                                     speech_end_ms=500 + len(speech) * 1000 // dev.RATE))
    with open(os.path.join(out, "manifest.jsonl"), "w") as f:
        f.writelines(json.dumps(r) + "\n" for r in rows)
    print(f"{len(rows)} files in {out}")


if __name__ == "__main__":
    main()
