#!/usr/bin/env python3
"""Held-out check corpus: the dev corpus's commands, said by voices and mixed with noise the
dev corpus does not use and the wake word's training never saw, so that settings tuned on
the dev corpus can be checked on speech they were not tuned on.

usage: heldout.py OUTDIR [--negatives [--hours H] | --commands | --conversation [--hours H] | --words [--hours H]]
  Writes OUTDIR/manifest.jsonl (conditions clean, brown20, brown10, brown5) in the dev
  corpus's format, plus `wake_end_ms` (where "susi" ends); with --negatives
  OUTDIR/negatives.jsonl: GPL-3 text read by the five held-out voices (about 35 minutes),
  and with --hours H more read text until H hours (the wake word comparison's long set:
  Apache-2.0 and the man pages of sections 5 and 8, which the wake word's training does not
  read, by the held-out accents with eSpeak NG variants that neither training nor its
  validation use, LONG_VARIANTS, at 140-219 words per minute);
  with --commands OUTDIR/manifest.jsonl of the commands alone after 1.5 s of quiet (no wake
  word; any wake in them is false), in the same conditions;
  with --conversation [--hours H] OUTDIR/negatives.jsonl of two voices taking turns (a
  confirmation set for false wakes: short turns after pauses of 0.25-1.2 s, as in a room where
  people talk, over a brown floor 30, 20 or 10 dB down; sentences from Python's standard library
  docstrings and Debian changelogs, read nowhere else; held-out accents with eSpeak NG variants
  that neither training, validation nor the other sets use, CONVERSATION_VARIANTS; what each turn
  said, from which millisecond, beside each file as .txt). Nothing is
  chosen on it: it checks, on speech of another kind, a false-wake rate chosen elsewhere;
  with --words [--hours H] (default 1) OUTDIR/negatives.jsonl of single words after pauses of
  0.6-2.0 s (someone answering, calling out a name, reading out a list), one voice a file, over
  the conversation's floors: the fifth of the pronouncing dictionary's words that the wake
  word's training never says (bench/wakeword/texts.py `words_unlike`), half of them sharing two
  sounds with "susi", none said within one sound of it; the held-out accents with LONG_VARIANTS.
Voices: eSpeak NG accents that neither the dev corpus nor the wake word's training use
(en-gb-x-rp, en-us-nyc, en-gb-x-gbcwmd), plain and with variants training does not use.
Needs what dev-corpus.py needs (espeak-ng, sox) and its path in DEV_CORPUS or at
../shared/tools/dev-corpus.py from the repository.
"""
import ast, glob, gzip, json, os, random, subprocess, sys

from devcorpus import HELDOUT_VOICES, dev, mix, mix_under

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "wakeword"))
from texts import man_text, sentences_from, words_unlike  # noqa: E402

dev.VOICES = dict(HELDOUT_VOICES)
dev.CONDITIONS = [("clean", None), ("brown20", 20.0), ("brown10", 10.0), ("brown5", 5.0)]


def brown(n, seed):
    """Brown noise instead of the dev corpus's pink (the build calls it `pink`)."""
    tmp = f"/tmp/heldout-noise-{os.getpid()}-{seed}.wav"
    subprocess.run(["sox", "-V1", "-R", "-n", "-r", str(dev.RATE), "-c", "1", "-b", "16", tmp,
                    "synth", f"{n / dev.RATE:.3f}", "brownnoise"], check=True)
    a = dev.read(tmp)
    os.remove(tmp)
    return a[:n] + dev.array.array("h", [0] * max(0, n - len(a)))


dev.pink = brown


def add_wake_ends(outdir):
    """Where each file's "susi" ends: the build puts it at 700 ms, trimmed, before the gap."""
    ends = {}
    for voice in dev.VOICES:
        wake = dev.trim(dev.synth(voice, "susi", os.path.join(outdir, "_w.wav")))
        ends[voice] = 700 + len(wake) * 1000 // dev.RATE
    path = os.path.join(outdir, "manifest.jsonl")
    rows = [json.loads(line) for line in open(path)]
    with open(path, "w") as f:
        for row in rows:
            row["wake_end_ms"] = ends[row["voice"]]
            f.write(json.dumps(row) + "\n")


def commands_only(outdir):
    """The commands alone after 1.5 s of quiet: a wake in them is false."""
    os.makedirs(outdir, exist_ok=True)
    rows = []
    for vi, voice in enumerate(dev.VOICES):
        for ci, (intent, text) in enumerate(dev.COMMANDS):
            cmd = dev.trim(dev.synth(voice, text, os.path.join(outdir, "_c.wav")))
            clean = dev.silence(1.5) + cmd + dev.silence(1.0)
            level = dev.rms(cmd)
            for cond, snr in dev.CONDITIONS:
                uid = f"{voice}-{ci:02d}-{cond}"
                path = os.path.join(outdir, uid + ".wav")
                mixed = clean
                if snr is not None:
                    mixed = mix_under(clean, brown(len(clean), 1000 + vi * 100 + ci), level, snr)
                dev.write(path, mixed)
                rows.append(dict(id=uid, file=path, voice=voice, condition=cond, intent=intent, text=text,
                                 wake_ms=-1, command_start_ms=1500, speech_end_ms=1500 + len(cmd) * 1000 // dev.RATE))
    with open(os.path.join(outdir, "manifest.jsonl"), "w") as f:
        f.writelines(json.dumps(r) + "\n" for r in rows)


HELD_OUT_ACCENTS = ["en-gb-x-rp", "en-us-nyc", "en-gb-x-gbcwmd"]
# eSpeak NG variants that bench/wakeword/data.py uses neither for training nor for validation.
LONG_VARIANTS = ["", "f2", "m4", "klatt2", "grandma", "klatt6", "aunty", "Andrea", "boris"]


def long_texts():
    """Sentences the wake word's training never reads: Apache-2.0, man pages of sections 5, 8."""
    rnd = random.Random(5)
    text = sentences_from(open("/usr/share/common-licenses/Apache-2.0").read(), rnd)
    for path in sorted(glob.glob("/usr/share/man/man5/*")) + sorted(glob.glob("/usr/share/man/man8/*")):
        text += sentences_from(man_text(path), rnd)
    rnd.shuffle(text)
    return [t for t in text if "susi" not in t.lower().split()]


# eSpeak NG variants used by no other set here and not by the wake word's training or validation.
CONVERSATION_VARIANTS = ["announcer", "edward2", "iven2", "steph3", "Denis", "gustave", "michel", "sandro", "Gene2",
                         "Nguyen"]


def conversation_texts():
    """Short sentences nobody else reads: Python's docstrings and Debian changelog entries."""
    rnd = random.Random(11)
    text = []
    for path in sorted(glob.glob("/usr/lib/python3*/*.py")):
        try:
            tree = ast.parse(open(path, errors="ignore").read())
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and ast.get_docstring(node):
                text += sentences_from(ast.get_docstring(node).split("\n\n")[0], rnd, low=3, high=20)
    for path in sorted(glob.glob("/usr/share/doc/*/changelog.Debian.gz")):
        try:
            lines = gzip.open(path, "rt", errors="ignore").read(20000).splitlines()
        except (OSError, EOFError):
            continue
        items = [line.strip()[2:] for line in lines if line.strip().startswith("* ")]
        text += sentences_from(". ".join(items), rnd, low=3, high=20)
    rnd.shuffle(text)
    return [t for t in dict.fromkeys(text) if "susi" not in t.lower().split()]


def espeak_voice(prefix, accent, variant, speed):
    """An eSpeak NG voice (`accent`, `variant` or none, `speed` words per minute) made known to the
    dev corpus's synthesiser as PREFIX-ACCENT[+VARIANT]; that name."""
    voice = accent + ("+" + variant if variant else "")
    dev.VOICES[f"{prefix}-{voice}"] = ["espeak-ng", "-v", voice, "-s", str(speed), "-w", "{out}", "{text}"]
    return f"{prefix}-{voice}"


def conversation(outdir, hours=3.0, seconds_per_file=300):
    """Two voices taking turns over a room's floor: see --conversation above."""
    os.makedirs(outdir, exist_ok=True)
    rnd = random.Random(12)
    sentences = conversation_texts()
    voices = [(accent, variant) for variant in CONVERSATION_VARIANTS for accent in HELD_OUT_ACCENTS]
    rnd.shuffle(voices)
    rows, k = [], 0
    while sum(r["seconds"] for r in rows) < hours * 3600 and len(sentences) > 3:
        pair = [voices[(2 * k) % len(voices)], voices[(2 * k + 1) % len(voices)]]
        names = [espeak_voice("talk", accent, variant, rnd.randint(140, 210)) for accent, variant in pair]
        track, speech_power, speech_samples, turn, said_at = dev.silence(rnd.uniform(0.5, 1.5)), 0.0, 0, 0, []
        while len(track) < seconds_per_file * dev.RATE and len(sentences) > 3:
            said = ". ".join(sentences.pop() for _ in range(rnd.choice([1, 1, 2, 3]))) + "."
            samples = dev.trim(dev.synth(names[turn % 2], said, os.path.join(outdir, "_t.wav")))
            said_at.append((len(track) * 1000 // dev.RATE, said))
            speech_power += sum(x * x for x in samples)
            speech_samples += len(samples)
            track += samples + dev.silence(rnd.uniform(0.25, 1.2))
            turn += rnd.choice([1, 1, 1, 0])
        rows.append(over_floor(outdir, f"talk-{k:03d}", k, track, speech_power / max(1, speech_samples), said_at, names))
        k += 1
    write_rows(outdir, rows)


def over_floor(outdir, name, k, track, speech_power, said_at, names):
    """`track` over a brown floor 30, 20 or 10 dB (by `k`) under its speech's mean power, written
    as OUTDIR/negative-NAME-SNRdB.wav with what was said from which millisecond beside it (.txt)."""
    snr = [30, 20, 10][k % 3]
    level = speech_power ** 0.5 / 10 ** (snr / 20)
    noise = brown(len(track), 2000 + k)
    gain = level / max(1.0, dev.rms(noise[: dev.RATE * 20]))
    path = os.path.join(outdir, f"negative-{name}-{snr}dB.wav")
    dev.write(path, mix(track, noise, gain))
    with open(path[:-4] + ".txt", "w") as f:
        f.writelines(f"{ms}\t{text}\n" for ms, text in said_at)
    return dict(file=path, voice=" / ".join(names), seconds=len(track) / dev.RATE, snr=snr)


def write_rows(outdir, rows):
    with open(os.path.join(outdir, "negatives.jsonl"), "w") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")


def isolated_words(outdir, hours=1.0, seconds_per_file=300):
    """Single words after pauses over a room's floor: see --words above."""
    os.makedirs(outdir, exist_ok=True)
    rnd = random.Random(13)
    every, near = words_unlike("susi", bench=True)
    voices = [(accent, variant) for variant in LONG_VARIANTS for accent in HELD_OUT_ACCENTS]
    rnd.shuffle(voices)
    rows, k = [], 0
    while sum(r["seconds"] for r in rows) < hours * 3600:
        accent, variant = voices[k % len(voices)]
        name = espeak_voice("words", accent, variant, rnd.randint(140, 210))
        track, speech_power, speech_samples, said_at = dev.silence(rnd.uniform(0.5, 1.5)), 0.0, 0, []
        while len(track) < seconds_per_file * dev.RATE:
            word = rnd.choice(near if rnd.random() < 0.5 else every)
            samples = dev.trim(dev.synth(name, word, os.path.join(outdir, "_w.wav")))
            said_at.append((len(track) * 1000 // dev.RATE, word))
            speech_power += sum(x * x for x in samples)
            speech_samples += len(samples)
            track += samples + dev.silence(rnd.uniform(0.6, 2.0))
        rows.append(over_floor(outdir, f"words-{k:03d}", k, track, speech_power / max(1, speech_samples), said_at, [name]))
        k += 1
    write_rows(outdir, rows)


def negatives(outdir, hours=0.0, words_per_voice=1200, words_per_file=1400):
    os.makedirs(outdir, exist_ok=True)
    words = open("/usr/share/common-licenses/GPL-3").read().split()
    rows = []
    for k, voice in enumerate(dev.VOICES):
        start = (k * 1100) % len(words)
        text = " ".join((words[start:] + words)[:words_per_voice])
        samples = dev.synth(voice, text, os.path.join(outdir, "_n.wav"))
        path = os.path.join(outdir, f"negative-{voice}.wav")
        dev.write(path, samples)
        rows.append(dict(file=path, voice=voice, seconds=len(samples) / dev.RATE))
    sentences = long_texts() if hours > 0 else []
    combos = [(accent, variant) for variant in LONG_VARIANTS for accent in HELD_OUT_ACCENTS]
    k = 0
    while sum(r["seconds"] for r in rows) < hours * 3600 and sentences:
        accent, variant = combos[k % len(combos)]
        name = espeak_voice("long", accent, variant, 140 + (k * 17) % 80)
        words, text = 0, []
        while words < words_per_file and sentences:
            text.append(sentences.pop())
            words += len(text[-1].split())
        samples = dev.synth(name, ". ".join(text) + ".", os.path.join(outdir, "_n.wav"))
        path = os.path.join(outdir, f"negative-long-{k:03d}-{accent}{'-' + variant if variant else ''}.wav")
        dev.write(path, samples)
        rows.append(dict(file=path, voice=name, seconds=len(samples) / dev.RATE))
        k += 1
    write_rows(outdir, rows)


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        sys.exit(__doc__)
    dev.check_tools()
    hours = float(sys.argv[sys.argv.index("--hours") + 1]) if "--hours" in sys.argv else None
    if "--words" in sys.argv:
        isolated_words(sys.argv[1], 1.0 if hours is None else hours)
    elif "--conversation" in sys.argv:
        conversation(sys.argv[1], 3.0 if hours is None else hours)
    elif "--negatives" in sys.argv:
        negatives(sys.argv[1], hours or 0.0)
    elif "--commands" in sys.argv:
        commands_only(sys.argv[1])
    else:
        dev.build(sys.argv[1], dev.COMMANDS)
        add_wake_ends(sys.argv[1])
