#!/usr/bin/env python3
"""Training data for the neural wake word: synthetic speech, augmented, turned into the front
end's embeddings (frontend.py) and written as shards.

usage: data.py OUTDIR PHRASE [--positives N] [--negative-hours H] [--validation-hours H]
                             [--validation-positives N] [--breadth] [--jobs N] [--frontend DIR] [--seed N]

Voices (never Festival, never flite awb, rms or kal16: those are kept for evaluation; the
eSpeak NG accents en-gb-x-rp, en-us-nyc and en-gb-x-gbcwmd are bench/heldout.py's):
  training    eSpeak NG en-us, en-gb, en-gb-scotland, en-029, en-gb-x-gbclan, each plain and
              with variants; flite slt
  validation  flite kal, and the training accents with variants training never uses
              (the threshold is calibrated on the harder of the two, see train.py)
Positives: the phrase alone, after "hey"/"hi"/"okay", and before a command (a short gap or
none), after silence or after other speech. Negatives (NEGATIVE_KINDS): read text of several
kinds (Python's reference, licences, package READMEs and copyright files, man pages), near
misses (sushi, juicy, Susan, Tuesday, ...), commands without the name after silence,
conversation, two or three voices taking turns, sox chords (music-like) with and without
speech over them (TV-like), and noise of several colours. Augmentation: speaking rate and
pitch, sox tempo and pitch shift, reverb, band limits, level, and 0-20 dB of white, pink,
brown, babble, music or TV noise (a fifth clean). With --breadth (issue 54): lower and higher
voices, vocal-tract-length warps, synthetic rooms, a running tap, a fan and babble of up to 8
voices (the note above `trim`; measured and not used for the committed head).
Deterministic for a given seed (sox runs with -R, no random dither): every shard has its own
seed, so the shards come out the same whichever of the `--jobs` worker processes (default 2)
makes them, and a shard already written is kept.

Shards: OUTDIR/{train,validation}-{pos,neg}-NNN.npz with `embeddings` (float16, n x 96), and
for positives `ends` (the rows where the phrase has just ended, see train.py) and
`groups` (the synthesizer of each positive); negative shards carry `kinds` (JSON: seconds of
each kind). Python 3 with numpy; espeak-ng, flite, sox.
"""
import argparse, glob, hashlib, json, os, random, re, subprocess, sys, tempfile, time

import numpy as np

from frontend import FrontEnd
from texts import man_text, sentences_from

RATE = 16000
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

ACCENTS = ["en-us", "en-gb", "en-gb-scotland", "en-029", "en-gb-x-gbclan"]
TRAIN_VARIANTS = ["", "m1", "m2", "m3", "m5", "m6", "m7", "f1", "f3", "f5", "klatt", "klatt3",
                  "Alex", "Andy", "Annie", "david", "edward", "steph", "Storm", "linda", "max", "shelby",
                  # added 2026-12-01 (third round): more speakers for both positives and negatives
                  "adam", "Alicia", "belinda", "benjamin", "caleb", "ed", "Gene", "Hugo", "iven", "Jacky",
                  "john", "Lee", "Mike", "paul", "quincy", "rob", "robert", "steph2", "zac", "anika",
                  "grandpa", "norbert", "victor", "klatt5"]
VALIDATION_VARIANTS = ["f4", "m8", "klatt4", "Michael", "travis"]
HELD_OUT_ACCENTS = ["en-gb-x-rp", "en-us-nyc", "en-gb-x-gbcwmd"]  # bench/heldout.py's
# bench/heldout.py's variants, never used here: f2, m4, klatt2, grandma, klatt6, aunty, Andrea, boris.

NEAR_MISSES = ["sushi", "juicy", "susan", "suzanne", "tuesday", "soothing", "seesaw", "lucy", "choosy",
               "uzi", "doozy", "newsy", "floozy", "jesus", "sue", "sue me", "so see", "who is he", "zeus",
               "sweety", "sunny", "city", "busy", "easy", "cozy", "lazy", "daisy", "suit", "souvenir",
               "susceptible", "superb", "super", "usually", "music", "choose", "juice", "suzerain", "sousa",
               "sue z", "zuzu", "hoosier", "woozy", "boozy", "oozy", "soup", "student", "sixty", "season"]
CARRIERS = ["I had {} for lunch", "that was {}", "{} is coming over later", "see you on {}",
            "did you say {}", "it is so {} today", "{}", "ask {} about it", "the {} one please",
            "we talked about {} yesterday", "my friend {} called", "what a {} morning"]
CONVERSATION = [
    "how was your day", "I think we should leave soon", "can you pass the salt", "the weather is nice",
    "where did you put my keys", "let's watch a movie tonight", "I'm going to the store", "call me later",
    "the meeting starts at nine", "have you seen the news", "dinner is ready", "turn left at the corner",
    "that's a great idea", "I don't know what you mean", "the kids are asleep", "it's raining again",
    "we need more milk", "the train was late this morning", "she said she would come", "thank you so much",
    "good night everyone", "who wants coffee", "this song is amazing", "the game starts in ten minutes",
    "don't forget your umbrella", "I love this recipe", "is anybody home", "let me check my calendar"]
GREETINGS = ["hey", "hi", "okay", "hello", "oh"]


# Texts the bench reads (bench/heldout.py --negatives), never used here: the GPL-3 and
# Apache-2.0 licences and the man pages of sections 5 and 8.
BENCH_TEXTS = ("GPL-3", "Apache-2.0")


def reading_texts(rnd, phrase):
    """Read-speech sources: Python's reference topics, the licences Debian ships (not the
    GPL-3 and Apache-2.0 the bench's negatives read), package READMEs and copyright files,
    and man pages of sections 1 and 7 (not 5 and 8: the bench's; of the 16,000 pages of the
    Google Cloud CLI, every 40th)."""
    texts = []
    try:
        import pydoc_data.topics as topics
        texts += sentences_from("\n\n".join(topics.topics.values()), rnd)
    except ImportError:
        pass
    for path in sorted(glob.glob("/usr/share/common-licenses/*")):
        if os.path.basename(path) in BENCH_TEXTS or os.path.isdir(path):
            continue
        texts += sentences_from(open(path, errors="ignore").read(), rnd)
    for path in sorted(glob.glob("/usr/share/doc/*/README*"))[:400]:
        if path.endswith((".gz", ".html")) or os.path.isdir(path):
            continue
        texts += sentences_from(open(path, errors="ignore").read()[:20000], rnd)
    for path in sorted(glob.glob("/usr/share/doc/*/copyright")):
        texts += sentences_from(open(path, errors="ignore").read()[:20000], rnd)
    pages = sorted(glob.glob("/usr/share/man/man1/*")) + sorted(glob.glob("/usr/share/man/man7/*"))
    gcloud = [p for p in pages if os.path.basename(p).startswith("gcloud")]
    pages = [p for p in pages if not os.path.basename(p).startswith("gcloud")] + gcloud[::40]
    for path in pages:
        texts += sentences_from(man_text(path), rnd)
    # Copyright files quote licences: no sentence of the bench's licence texts is read here.
    bench = set()
    for name in BENCH_TEXTS:
        bench.update(sentences_from(open(os.path.join("/usr/share/common-licenses", name), errors="ignore").read(), rnd))
    words = set(phrase.lower().split())
    texts = sorted({t for t in texts if not words & set(t.lower().split()) and t not in bench})
    rnd.shuffle(texts)
    return texts


def commands():
    """Example commands of the bundled skills, without the name."""
    out = []
    for path in sorted(glob.glob(os.path.join(REPO, "models", "skills", "*.txt"))):
        for line in open(path):
            if line.startswith("!example:"):
                out.append(re.sub(r"[^A-Za-z0-9' ]", " ", line[len("!example:"):]).strip())
    return [c for c in out if c]


class Synth:
    def __init__(self, rnd, tmp, breadth=False):
        """`breadth`: the breadth recipe's voices (lower pitches, vocal-tract-length warps: the
        note above `trim`)."""
        self.rnd, self.tmp, self.breadth = rnd, tmp, breadth

    def voice(self, split):
        """A random voice of `split`: (synthesizer group, (synthesizer, voice name))."""
        rnd = self.rnd
        if split == "train":
            if rnd.random() < 0.18:
                return "flite-slt", ("flite", "slt")
            group, variants = "espeak", TRAIN_VARIANTS
        else:
            if rnd.random() < 0.5:
                return "flite-kal", ("flite", "kal")
            group, variants = "espeak-unseen-variant", VALIDATION_VARIANTS
        accent, variant = rnd.choice(ACCENTS), rnd.choice(variants)
        # "en-gb+VARIANT" is plain en-gb (eSpeak NG 1.51 ignores the variant there); "en+VARIANT"
        # would be the same accent with the variant. Not in the recipe, whose shards would change.
        return group, ("espeak", accent + ("+" + variant if variant else ""))

    def say(self, voice, text, rate_scale=1.0, effects=True):
        """`text` spoken by `voice`, 16 kHz int16, with random rate, pitch, tempo, reverb."""
        rnd = self.rnd
        raw = os.path.join(self.tmp, "s.wav")
        if voice[0] == "espeak":
            speed = int(rnd.uniform(*((110, 250) if self.breadth else (130, 250))) * rate_scale)
            pitch = rnd.randint(*((0, 90) if self.breadth else (20, 80)))
            argv = ["espeak-ng", "-v", voice[1], "-s", str(speed), "-p", str(pitch), "-w", raw, text]
        else:
            stretch = rnd.uniform(0.8, 1.25) / rate_scale
            f0 = rnd.randint(*((70, 200) if self.breadth else (85, 190)))
            argv = ["flite", "-voice", voice[1], "--setf", f"duration_stretch={stretch:.2f}",
                    "--setf", f"int_f0_target_mean={f0}", "-t", text, "-o", raw]
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        chain = ["rate", str(RATE)]
        if effects:
            if rnd.random() < 0.5:
                chain += ["tempo", "-s", f"{rnd.uniform(0.88, 1.15):.3f}"]
            if rnd.random() < 0.4:
                chain += ["pitch", str(rnd.randint(-250, 250))]
            if self.breadth and rnd.random() < 0.5:
                # A vocal-tract-length warp: pitch and formants times F, the duration kept.
                factor = rnd.uniform(0.8, 1.2)
                # `rate` right after `speed`, so that the effects after it see 16 kHz again.
                chain += ["speed", f"{factor:.3f}", "rate", str(RATE), "tempo", "-s", f"{1 / factor:.3f}"]
            if rnd.random() < 0.35:
                chain += ["reverb", str(rnd.randint(10, 70)), "50", str(rnd.randint(20, 100))]
            if rnd.random() < 0.3:
                chain += ["highpass", str(rnd.randint(80, 300))]
            if rnd.random() < 0.3:
                chain += ["lowpass", str(rnd.randint(3000, 7000))]
        out = subprocess.run(["sox", "-V1", "-R", raw, "-t", "raw", "-r", str(RATE), "-c", "1", "-b", "16", "-e", "signed", "-"]
                             + chain, check=True, capture_output=True).stdout
        return trim(np.frombuffer(out, np.int16).astype(np.float32))

    def chords(self, seconds):
        """Music-like audio: a random progression of sox-synthesised chords."""
        rnd = self.rnd
        path = os.path.join(self.tmp, "m.raw")
        pieces = []
        left = seconds
        while left > 0:
            length = rnd.uniform(0.4, 1.5)
            root = rnd.randint(-12, 12)
            notes = [f"%{root + k}" for k in rnd.choice([(0, 4, 7), (0, 3, 7), (0, 4, 7, 11), (0, 5, 9), (0, 7)])]
            shape = rnd.choice(["sine", "square", "triangle", "sawtooth", "pluck"])
            argv = ["sox", "-V1", "-R", "-n", "-t", "raw", "-r", str(RATE), "-c", "1", "-b", "16", "-e", "signed", path,
                    "synth", f"{length:.2f}"] + sum(([shape, n] for n in notes), [])
            argv += ["remix", "-", "fade", "0.02", f"{length:.2f}", "0.1"]
            if rnd.random() < 0.4:
                argv += ["tremolo", str(rnd.randint(3, 9)), "40"]
            subprocess.run(argv, check=True)
            pieces.append(np.fromfile(path, np.int16).astype(np.float32))
            left -= length
        return np.concatenate(pieces)[:int(seconds * RATE)]


# The breadth recipe (`data.py --breadth`, issue 54): the voices lower and higher (eSpeak NG
# pitch 0-90, flite 70-200 Hz, speaking rate from 110 words per minute, and a vocal-tract-length
# warp of 0.8-1.2 on half of the clips: `sox speed F tempo 1/F` moves pitch and formants
# together), synthetic rooms (room_response, on 40% of the clips under the noise), and more
# kinds of noise at 0-20 dB (a running tap, a fan, babble of 3-8 voices). The bench's dev set
# (bench/wake-stages.py) showed low and warped voices, babble, tap and fan noise lost at the head.


def trim(a, threshold=200):
    loud = np.nonzero(np.abs(a) >= threshold)[0]
    return a[loud[0]:loud[-1] + 1] if len(loud) else a[:0]


def rms(a):
    active = a[np.abs(a) > 0.05 * (np.abs(a).max() + 1e-9)]
    return float(np.sqrt(np.mean(active ** 2))) if len(active) else 1.0


def coloured(n, colour, rnd):
    rng = np.random.default_rng(rnd.randrange(1 << 30))
    white = rng.standard_normal(n + 1)
    if colour == "white":
        return white[:n]
    spectrum = np.fft.rfft(white)
    f = np.arange(len(spectrum), dtype=np.float64)
    f[0] = 1
    power = {"pink": 0.5, "brown": 1.0, "blue": -0.5}[colour]
    return np.fft.irfft(spectrum / f ** power, n + 1)[:n]


# band, wobble, running_water and fan_noise are written apart from bench/wake-stages.py's noises
# on purpose: the head must not be trained on the generator the bench judges it with.
def band(x, low, high):
    """`x` with everything outside low-high Hz taken out."""
    spectrum = np.fft.rfft(x)
    freqs = np.fft.rfftfreq(len(x), 1 / RATE)
    spectrum[(freqs < low) | (freqs > high)] = 0
    return np.fft.irfft(spectrum, len(x))


def wobble(rng, n, per_second, depth):
    """A level that wanders by about `depth` around 1, `per_second` random knots a second."""
    knots = max(2, int(n / RATE * per_second) + 2)
    return np.clip(np.interp(np.arange(n), np.linspace(0, n, knots), 1 + depth * rng.standard_normal(knots)), 0.05, None)


def running_water(n, rnd):
    """A tap: hiss in a random band (300-1,200 to 3,500-7,500 Hz) that gurgles and splashes."""
    rng = np.random.default_rng(rnd.randrange(1 << 30))
    hiss = band(rng.standard_normal(n), rnd.uniform(300, 1200), rnd.uniform(3500, 7500))
    return hiss * wobble(rng, n, rnd.uniform(6, 20), rnd.uniform(0.2, 0.5)) * wobble(rng, n, 1.5, 0.3)


def fan_noise(n, rnd):
    """A fan or an extractor hood: a hum of 50-160 Hz with 2-7 harmonics over low-passed pink noise."""
    t = np.arange(n) / RATE
    f0 = rnd.uniform(50, 160)
    hum = sum(np.sin(2 * np.pi * k * f0 * t + rnd.uniform(0, 6.3)) * rnd.uniform(0.2, 1.0) / k
              for k in range(1, rnd.randint(3, 8)))
    rush = band(coloured(n, "pink", rnd), 20, rnd.uniform(800, 3500))
    return hum / max(np.std(hum), 1e-9) * rnd.uniform(0.2, 1.0) + rush / max(np.std(rush), 1e-9)


def room_response(rnd):
    """A synthetic room's impulse response, its direct sound at sample 0 with gain 1: the
    image sources of a shoebox room (2.5-9 m x 2.5-7 m x 2.3-3.5 m, the talker and the
    speaker at random places in it, walls reflecting 50-90% of the pressure) up to the
    third reflection, then a decaying noise tail for the RT60 the walls give (Sabine)."""
    rng = np.random.default_rng(rnd.randrange(1 << 30))
    room = np.array([rnd.uniform(2.5, 9), rnd.uniform(2.5, 7), rnd.uniform(2.3, 3.5)])
    source, mic = (np.array([rnd.uniform(0.3, d - 0.3) for d in room]) for _ in range(2))
    beta = rnd.uniform(0.5, 0.9)
    speed = 343.0
    direct = max(np.linalg.norm(source - mic), 0.3)
    absorption = 1 - beta ** 2
    volume, surface = np.prod(room), 2 * (room[0] * room[1] + room[0] * room[2] + room[1] * room[2])
    rt60 = float(np.clip(0.161 * volume / (surface * absorption), 0.1, 1.2))
    h = np.zeros(int(rt60 * RATE) + 1)
    order = 3
    for i in range(-order, order + 1):
        for j in range(-order, order + 1):
            for k in range(-order, order + 1):
                reflections = abs(i) + abs(j) + abs(k)
                if reflections > order:
                    continue
                image = np.array([
                    (2 * ((m + 1) // 2) * d + (-1) ** m * s) for m, d, s in zip((i, j, k), room, source)])
                distance = max(np.linalg.norm(image - mic), 0.3)
                delay = int(round((distance - direct) / speed * RATE))
                if 0 <= delay < len(h):
                    h[delay] += beta ** reflections * direct / distance
    t = np.arange(len(h)) / RATE
    start = int(0.03 * RATE)
    tail = rng.standard_normal(len(h)) * np.exp(-6.9 * t / rt60) * beta ** order * 0.3
    tail[:start] = 0
    h += band(tail, 60, rnd.uniform(3000, 7000))
    h[0] = 1.0
    return h


def in_room(speech, rnd):
    """`speech` heard in a synthetic room (room_response), its length and level kept."""
    h = room_response(rnd)
    size = 1 << int(np.ceil(np.log2(len(speech) + len(h))))
    wet = np.fft.irfft(np.fft.rfft(speech, size) * np.fft.rfft(h, size), size)[:len(speech)]
    return wet * (rms(speech) / max(rms(wet), 1e-9))


class Mixer:
    """Background noise of a random kind at a random 0-20 dB under the speech, or none; with
    `breadth`, a synthetic room for 40% of the speech and more kinds of noise."""

    def __init__(self, synth, babble_pool, rnd, breadth=False):
        self.synth, self.babble, self.rnd, self.breadth = synth, babble_pool, rnd, breadth

    def background(self, n):
        rnd = self.rnd
        kinds = ["white", "pink", "pink", "brown", "brown", "blue", "babble", "music", "tv"]
        if self.breadth:
            kinds += ["babble", "babble", "tap", "tap", "fan", "fan"]
        kind = rnd.choice(kinds)
        if kind in ("white", "pink", "brown", "blue"):
            noise = coloured(n, kind, rnd)
        elif kind == "tap":
            noise = running_water(n, rnd)
        elif kind == "fan":
            noise = fan_noise(n, rnd)
        elif kind == "babble":
            voices = rnd.randint(3, 8) if self.breadth else rnd.randint(2, 5)
            noise = sum(self.loop(rnd.choice(self.babble), n) for _ in range(voices))
        else:
            noise = self.loop(self.synth.chords(min(6.0, n / RATE)), n)
            if kind == "tv":
                noise = noise / rms(noise) + self.loop(rnd.choice(self.babble), n) / rms(rnd.choice(self.babble))
        return kind, noise

    def loop(self, a, n):
        if len(a) == 0:
            return np.zeros(n)
        reps = n // len(a) + 1
        start = self.rnd.randrange(len(a))
        return np.tile(a, reps + 1)[start:start + n]

    def mix(self, speech, level=None):
        """`speech` with background noise (a fifth clean, else 0-20 dB), at a random level."""
        rnd = self.rnd
        level = level or rms(speech)
        if self.breadth and rnd.random() < 0.4:
            speech = in_room(speech, rnd)
        if rnd.random() < 0.2:
            out = speech + coloured(len(speech), "white", rnd) * rnd.uniform(1, 30)
            kind = "clean"
        else:
            kind, noise = self.background(len(speech))
            snr = rnd.uniform(0, 20)
            out = speech + noise * (level / max(rms(noise), 1e-6) / 10 ** (snr / 20))
        peak = np.abs(out).max() + 1e-6
        return kind, np.clip(out * (32767 * 10 ** (-rnd.uniform(1, 30) / 20) / peak), -32768, 32767)


def silence(seconds):
    return np.zeros(int(seconds * RATE), np.float32)


# What a worker process works with (`_start` sets it): the front end, a synthesizer with a
# temporary directory of its own, the mixer, and the texts and babble every worker shares.
WORKER = {}


def _start(frontend, reads, cmds, babble, tmp_root, breadth=False):
    rnd = random.Random()
    synth = Synth(rnd, tempfile.mkdtemp(dir=tmp_root), breadth)
    WORKER.update(front=FrontEnd(frontend), synth=synth, mixer=Mixer(synth, babble, rnd, breadth), reads=reads, cmds=cmds)


def _save(path, emb, **extra):
    np.savez(path + ".tmp.npz", embeddings=emb.astype(np.float16), **extra)
    os.replace(path + ".tmp.npz", path)


def positive_shard(split, shard, size, phrase, seed, path):
    """`size` positives in one stream, each after 1.7-2.4 s of context; seeded by the shard
    alone, so a shard comes out the same whichever worker makes it and whenever."""
    synth, mixer, reads, cmds = WORKER["synth"], WORKER["mixer"], WORKER["reads"], WORKER["cmds"]
    rnd = synth.rnd
    rnd.seed(f"{seed}-{split}-pos-{shard}")
    pieces, ends, groups = [], [], []
    position = 0
    for _ in range(size):
        group, voice = synth.voice(split)
        # Context: quiet, or the tail of someone speaking, then a pause.
        context = silence(rnd.uniform(1.7, 2.4))
        if rnd.random() < 0.45:
            other = synth.say(synth.voice(split)[1], rnd.choice(reads + cmds))[-int(1.5 * RATE):]
            gap = silence(rnd.uniform(0.15, 0.8))
            context = np.concatenate([silence(max(0.0, 2.0 - len(other) / RATE - len(gap) / RATE)), other, gap])
        form = rnd.random()
        fast = 1.3 if rnd.random() < 0.25 else 1.0
        name = rnd.choice([phrase, phrase, phrase + "!", phrase + ",", phrase + "?"])
        if form < 0.25:
            head = synth.say(voice, rnd.choice(GREETINGS) + " " + name, fast)
        else:
            head = synth.say(voice, name, fast)
        after = silence(rnd.uniform(0.3, 0.7))
        if form > 0.55:
            command = synth.say(voice, rnd.choice(cmds + CONVERSATION), fast)
            after = np.concatenate([silence(rnd.uniform(0.0, 0.25)), command])[:int(0.7 * RATE)]
        clip = np.concatenate([context, head, after])
        kind, mixed = mixer.mix(clip, rms(head))
        pieces.append(mixed)
        ends.append(position + len(context) + len(head))
        groups.append(f"{group}/{'clean' if kind == 'clean' else 'noisy'}")
        position += len(clip)
    audio = np.concatenate(pieces)
    _save(path, WORKER["front"].embeddings(audio.astype(np.int16)), ends=np.array(ends), groups=np.array(groups))
    return f"{split} positives", size, {}


NEGATIVE_KINDS = {"read": 34, "near-miss": 10, "command": 14, "conversation": 8, "dialogue": 8, "music": 6,
                  "tv": 14, "noise": 6}


def negative_shard(split, shard, minutes, seed, path):
    """`minutes` of audio without the phrase (kinds drawn by NEGATIVE_KINDS), seeded by the shard."""
    synth, mixer = WORKER["synth"], WORKER["mixer"]
    rnd = synth.rnd
    rnd.seed(f"{seed}-{split}-neg-{shard}")
    kinds = {}

    def piece():
        kind = rnd.choices(list(NEGATIVE_KINDS), weights=list(NEGATIVE_KINDS.values()))[0]
        voice = synth.voice(split)[1]
        try:
            speech = negative_piece(kind, voice, synth, WORKER["reads"], WORKER["cmds"], split)
        except subprocess.CalledProcessError as error:
            print(f"skipped a {kind} piece: {error}", file=sys.stderr)
            return None
        if len(speech) == 0:
            return None
        _, mixed = mixer.mix(np.concatenate([speech, silence(rnd.uniform(0.1, 1.0))]))
        kinds[kind] = kinds.get(kind, 0) + len(mixed) / RATE
        return mixed

    return _stream(path, minutes, piece, f"{split} negatives", kinds)


def _stream(path, minutes, piece, label, kinds):
    """Writes a shard of `minutes` of `piece()` clips (None: none this time)."""
    pieces = []
    length = 0
    while length < minutes * 60 * RATE:
        clip = piece()
        if clip is not None:
            pieces.append(clip)
            length += len(clip)
    audio = np.concatenate(pieces)
    _save(path, WORKER["front"].embeddings(audio.astype(np.int16)), kinds=json.dumps(kinds))
    return label, len(audio) / RATE / 3600, kinds


def _run(task):
    return task[0](*task[1:])


def tasks(out, phrase, args):
    """Every shard not written yet, as (function, arguments...)."""
    todo = []

    def add(name, function, *arguments):
        path = os.path.join(out, f"{name}.npz")
        if not os.path.exists(path):
            todo.append((function,) + arguments + (path,))

    for split, count in [("validation", args.validation_positives), ("train", args.positives)]:
        for shard in range((count + 199) // 200):
            add(f"{split}-pos-{shard:03d}", positive_shard, split, shard, min(200, count - shard * 200), phrase, args.seed)
    for split, hours in [("validation", args.validation_hours), ("train", args.negative_hours)]:
        for shard in range(int(np.ceil(hours * 60 / 6.0 - 1e-9))):
            add(f"{split}-neg-{shard:03d}", negative_shard, split, shard, 6.0, args.seed)
    return todo


def negative_piece(kind, voice, synth, reads, cmds, split="train"):
    """One stretch of audio without the phrase, of the given kind."""
    rnd = synth.rnd
    if kind == "read":
        speech = synth.say(voice, " ".join(rnd.choice(reads) for _ in range(rnd.randint(1, 4))))
    elif kind == "near-miss":
        speech = synth.say(voice, rnd.choice(CARRIERS).format(rnd.choice(NEAR_MISSES)))
    elif kind == "command":
        speech = np.concatenate([silence(rnd.uniform(0.8, 2.5)), synth.say(voice, rnd.choice(cmds))])
    elif kind == "conversation":
        speech = synth.say(voice, ". ".join(rnd.sample(CONVERSATION, rnd.randint(1, 3))))
    elif kind == "dialogue":
        # Two or three speakers taking turns (a talk show, people in the room), short gaps.
        voices = [voice] + [synth.voice(split)[1] for _ in range(rnd.randint(1, 2))]
        turns = []
        for turn in range(rnd.randint(2, 5)):
            text = rnd.choice(CONVERSATION + cmds) if rnd.random() < 0.4 else rnd.choice(reads)
            turns += [synth.say(voices[turn % len(voices)], text), silence(rnd.uniform(0.05, 0.6))]
        speech = np.concatenate(turns)
    else:
        seconds = rnd.uniform(3, 12)
        if kind == "noise":
            speech = coloured(int(seconds * RATE), rnd.choice(["white", "pink", "brown", "blue"]), rnd)
        else:
            speech = synth.chords(seconds)
            if kind == "tv":
                talk = synth.say(voice, rnd.choice(reads))
                speech = speech[:len(talk)] * rnd.uniform(0.2, 1.0) / rms(speech) * rms(talk) \
                    + talk[:len(speech)] if len(talk) else speech
    return speech


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("phrase")
    parser.add_argument("--positives", type=int, default=1600)
    parser.add_argument("--validation-positives", type=int, default=1200)
    parser.add_argument("--negative-hours", type=float, default=10.2)
    parser.add_argument("--validation-hours", type=float, default=0.5)
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--frontend", default=os.path.join(REPO, "models", "hotword", "frontend"))
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--breadth", action="store_true",
                        help="lower and warped voices, synthetic rooms, tap, fan and more babble (issue 54)")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rnd = random.Random(args.seed)
    phrase = args.phrase.lower()
    reads = reading_texts(rnd, phrase)
    cmds = commands()
    # The texts come from the packages installed (their READMEs, copyright files and man pages):
    # another machine's set of packages gives other sentences, so other shards and another head.
    digest = hashlib.sha256("\n".join(reads).encode()).hexdigest()[:16]
    started = time.time()
    with tempfile.TemporaryDirectory(dir="/dev/shm" if os.path.isdir("/dev/shm") else None) as tmp:
        babble_synth = Synth(rnd, tmp)
        babble = [babble_synth.say(babble_synth.voice("train")[1], rnd.choice(reads), effects=False)
                  for _ in range(80 if args.breadth else 40)]
        todo = tasks(args.out, phrase, args)
        print(f"{len(todo)} shards to make, {args.jobs} worker(s); {len(reads)} sentences to read (digest {digest})", flush=True)
        initargs = (args.frontend, reads, cmds, babble, tmp, args.breadth)
        if args.jobs <= 1:
            _start(*initargs)
            results = map(_run, todo)
        else:
            import multiprocessing
            pool = multiprocessing.get_context("fork").Pool(args.jobs, initializer=_start, initargs=initargs)
            results = pool.imap_unordered(_run, todo)
        done = {}
        for count, (label, amount, _) in enumerate(results, 1):
            done[label] = done.get(label, 0) + amount
            print(f"[{(time.time() - started) / 60:5.1f} min] {count}/{len(todo)} shards; made now: "
                  + ", ".join(f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}" for k, v in done.items()), flush=True)
        if args.jobs > 1:
            pool.close()
            pool.join()
    summary = dict(phrase=phrase, seed=args.seed, reading_sentences=len(reads), reading_digest=digest,
                   commands=len(cmds), breadth=args.breadth,
                   minutes_this_run=round((time.time() - started) / 60, 1))
    for name in ("validation-neg", "train-neg"):
        kinds = {}
        for path in sorted(glob.glob(os.path.join(args.out, f"{name}-*.npz"))):
            for kind, seconds in json.loads(str(np.load(path)["kinds"])).items():
                kinds[kind] = round(kinds.get(kind, 0) + seconds / 3600, 3)
        summary[f"{name} hours by kind"] = kinds
    json.dump(summary, open(os.path.join(args.out, "data.json"), "w"), indent=1)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
