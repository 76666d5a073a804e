#!/usr/bin/env python3
"""Where the wake word is lost, per voice group and per noise (issue 54's diagnosis).

bench/voice-groups.py runs the whole speaker; this builds a broader wake-word dev set and asks
`susi-bench --wake-stages` what each stage made of every file, so that a miss can be put on one
stage: the input (clipping), the voice gate (`WakeGate`: was the name heard as voice at all and
fed to the detector?), the head (its highest score near the name against the threshold), the
decision (confirmation and steadiness: a candidate made?) and the verifier (PocketSphinx's
re-decoding of a candidate the head is not sure of).

Voices: eSpeak NG voices and variants and flite slt/kal only (Festival's voices and flite awb,
rms and kal16 are reserved and never used here). Each voice is in one split:

  dev       may be used to tune anything;
  held-out  reported only, never used to choose a setting (the accents and variants that
            bench/heldout.py keeps out of training: en-gb-x-rp, en-us-nyc, en-gb-x-gbcwmd,
            m4, f2, klatt2, klatt6, grandma, boris, Andrea).

Low voices get a vocal-tract-length warp, not only a lower pitch: the voice is made at a
higher pitch, then resampled (sox `speed F`, F < 1), which lowers pitch and formants together
by F, and `tempo 1/F` puts the duration back. (sox `pitch` alone also moves the formants: it is
`tempo` followed by a rate change, so flite kal `pitch -300` is a 16% warp, more than most
adult men differ.) Child-like voices get the opposite warp. Older/slower and faster speakers
come from eSpeak's rate and flite's duration stretch. Each of a voice's files says "susi" at a
slightly different rate (0.92-1.08), so a voice is not one sample of the name.

Noises, SNR over the speech (name and command) as the dev corpus mixes it: pink 15 and 5 dB,
brown 10 dB (bench/voice-groups.py's), a running tap (band-passed noise, 0.3-1.5 s bursts over
a fluctuating stream) at 10 dB, a fan (100 Hz blade hum with harmonics over low-passed pink
noise) at 10 dB, music (plucked triads with a bass, changing every 0.6 s) at 10 dB, and babble
(four other eSpeak NG voices reading sentences at once) at 15 and 5 dB.

Writes OUTDIR/manifest.jsonl (the dev corpus's columns plus group, split, wake_end_ms), runs
the bench tool with each SETTING given (`--set` lists, e.g. before/after a change) and prints a
Markdown table per split: wake rate per group and noise, and for the misses which stage lost
them, with the head's peak scores.

usage: bench/wake-stages.py [--out DIR] [--bench BIN] [--commands N] [--setting NAME=k=v,k=v ...]
                            [--build-only] [--table-only]
"""
import argparse, json, os, subprocess, sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from devcorpus import dev  # noqa: E402

_pink, _voices = dev.pink, dict(dev.VOICES)
import heldout  # noqa: E402  (its brown noise; importing it swaps dev.pink and dev.VOICES)
dev.pink, dev.VOICES = _pink, _voices
RATE = dev.RATE


def espeak(voice, pitch=None, speed=175, sox=""):
    return dict(engine="espeak", voice=voice, pitch=pitch, speed=speed, sox=sox)


def flite(voice, f0=None, stretch=1.0, sox=""):
    return dict(engine="flite", voice=voice, f0=f0, stretch=stretch, sox=sox)


def warp(factor):
    """Pitch and formants times `factor` (a vocal tract 1/factor as long), duration kept."""
    return f"speed {factor} tempo {1 / factor:.4f}"


# (split, group) -> voices. Dev voices are training or validation voices of the head
# (models/hotword/README.md) warped; held-out voices are bench/heldout.py's.
VOICES = {
    ("dev", "low male"): {
        "low-us-m3": espeak("en-us+m3", pitch=15, speed=140),
        "low-gb-m1-vtl": espeak("en-gb+m1", pitch=35, speed=150, sox=warp(0.88)),
        "low-us-m6-old": espeak("en-us+m6", pitch=10, speed=115),
        "low-kal-pitch": flite("kal", sox="pitch -300 speed 0.9 tempo 1.11"),
        "low-kal-vtl": flite("kal", f0=110, sox=warp(0.9)),
    },
    ("dev", "male"): {
        "male-us-m2": espeak("en-us+m2"),
        "male-scotland": espeak("en-gb-scotland"),
        "male-us-m7-fast": espeak("en-us+m7", speed=235),
        "male-kal": flite("kal"),
    },
    ("dev", "female"): {
        "female-gb-f4": espeak("en-gb+f4"),
        "female-us-f1-fast": espeak("en-us+f1", speed=235),
        "female-slt": flite("slt"),
    },
    ("dev", "child-like"): {
        "child-us-f5": espeak("en-us+f5", pitch=95, speed=190),
        "child-gb-f1-vtl": espeak("en-gb+f1", pitch=80, speed=185, sox=warp(1.12)),
        "child-slt": flite("slt", sox=warp(1.12)),
    },
    ("held-out", "low male"): {
        "ho-low-rp-m4-vtl": espeak("en-gb-x-rp+m4", pitch=30, speed=135, sox=warp(0.88)),
        "ho-low-nyc-boris-old": espeak("en-us-nyc+boris", pitch=12, speed=115),
    },
    ("held-out", "male"): {
        "ho-male-gbcwmd-m4": espeak("en-gb-x-gbcwmd+m4", speed=160),
        "ho-male-nyc-klatt2-fast": espeak("en-us-nyc+klatt2", speed=225),
    },
    ("held-out", "female"): {
        "ho-female-nyc-f2": espeak("en-us-nyc+f2"),
        "ho-female-rp-grandma-old": espeak("en-gb-x-rp+grandma", speed=120),
    },
    ("held-out", "child-like"): {
        "ho-child-rp-andrea-vtl": espeak("en-gb-x-rp+Andrea", pitch=85, speed=190, sox=warp(1.12)),
        "ho-child-nyc-klatt6": espeak("en-us-nyc+klatt6", pitch=99, speed=200),
    },
}
RESERVED = ("awb", "rms", "kal16")
assert not any(v["engine"] == "flite" and v["voice"] in RESERVED for vs in VOICES.values() for v in vs.values())

CONDITIONS = [("clean", None, None), ("pink15", "pink", 15.0), ("brown10", "brown", 10.0), ("pink5", "pink", 5.0),
              ("tap10", "tap", 10.0), ("fan10", "fan", 10.0), ("music10", "music", 10.0),
              ("babble15", "babble", 15.0), ("babble5", "babble", 5.0)]
# The name at a slightly different rate in each of a voice's files.
RATES = [1.0, 0.92, 1.08, 0.96, 1.04, 0.9]
GAP = 0.3
# Four voices for babble, none of them a corpus voice.
BABBLE_VOICES = ["en-us+m5", "en-gb+f3", "en-029+m1", "en-gb-x-gbclan+f5"]
BABBLE_TEXT = [
    "I think we should leave a little earlier tomorrow because the traffic was terrible today",
    "She said the new restaurant on the corner has the best soup in town but it is always full",
    "Did you remember to call your brother about the weekend and the tickets for the game",
    "The weather report says rain again so we might have to move the picnic indoors after all",
]


def synth(spec, text, rate, path):
    """`text` in voice `spec` at `rate` times its speed, 16 kHz mono, as float samples."""
    raw = path + ".raw.wav"
    if spec["engine"] == "espeak":
        argv = ["espeak-ng", "-v", spec["voice"], "-s", str(round(spec["speed"] * rate)), "-w", raw]
        if spec["pitch"] is not None:
            argv += ["-p", str(spec["pitch"])]
        argv.append(text)
    else:
        argv = ["flite", "-voice", spec["voice"], "--setf", f"duration_stretch={spec['stretch'] / rate:.3f}"]
        if spec["f0"] is not None:
            argv += ["--setf", f"int_f0_target_mean={spec['f0']}"]
        argv += ["-t", text, "-o", raw]
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    subprocess.run(["sox", "-V1", raw, "-r", str(RATE), "-c", "1", "-b", "16", "-e", "signed", path,
                    *spec["sox"].split()], check=True)
    a = np.array(dev.trim(dev.read(path)), dtype=np.float64)
    os.remove(raw)
    os.remove(path)
    return a


def bandpassed(x, low, high):
    spectrum = np.fft.rfft(x)
    freqs = np.fft.rfftfreq(len(x), 1 / RATE)
    spectrum[(freqs < low) | (freqs > high)] = 0
    return np.fft.irfft(spectrum, len(x))


def smooth_envelope(rng, n, hz, depth):
    """A random level swinging by about `depth` (0-1) a few times a second."""
    points = max(2, int(n / RATE * hz) + 2)
    knots = 1 + depth * rng.standard_normal(points)
    return np.clip(np.interp(np.arange(n), np.linspace(0, n, points), knots), 0.1, None)


def tap(n, rng):
    """Running water: hissy band-passed noise, a fluctuating stream with 0.3-1.5 s bursts."""
    x = bandpassed(rng.standard_normal(n), 600, 6000) * smooth_envelope(rng, n, 12, 0.35)
    bursts, t = np.full(n, 0.35), 0
    while t < n:
        length = int(rng.uniform(0.3, 1.5) * RATE)
        bursts[t:t + length] = 1.0 if rng.random() < 0.7 else 0.35
        t += length + int(rng.uniform(0.05, 0.4) * RATE)
    return x * np.convolve(bursts, np.ones(160) / 160, "same")


def fan(n, rng):
    """A fan: blade hum at about 100 Hz with harmonics over low-passed pink noise."""
    t = np.arange(n) / RATE
    f0 = rng.uniform(90, 120)
    hum = sum(np.sin(2 * np.pi * k * f0 * t + rng.uniform(0, 6.3)) / k for k in range(1, 6))
    broad = bandpassed(np.array(dev.pink(n, 0), dtype=np.float64), 20, 2500)
    return hum / np.std(hum) + broad / max(1e-9, np.std(broad))


NOTES = {"C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11}
CHORDS = [("C", "E", "G"), ("G", "B", "D"), ("A", "C", "E"), ("F", "A", "C"), ("D", "F", "A"), ("E", "G", "B")]


def music(n, rng):
    """Plucked triads over a bass note, a new chord every 0.6 s (sox-like synth in numpy)."""
    out, t, hop = np.zeros(n), 0, int(0.6 * RATE)
    time = np.arange(hop) / RATE
    while t < n:
        chord = CHORDS[rng.integers(len(CHORDS))]
        octave = rng.choice([4, 5])
        seg = np.zeros(hop)
        for note in chord:
            f = 261.63 * 2 ** ((NOTES[note] + 12 * (octave - 4)) / 12) * (2 if NOTES[note] < NOTES[chord[0]] else 1)
            seg += sum(np.sin(2 * np.pi * k * f * time) / k for k in range(1, 5)) * np.exp(-time * 4)
        bass = 261.63 * 2 ** ((NOTES[chord[0]] - 24) / 12)
        seg += 0.8 * np.sin(2 * np.pi * bass * time) * np.exp(-time * 2)
        out[t:t + hop] = seg[:n - t]
        t += hop
    return out


_BABBLE = {}


def babble(n, rng, workdir):
    if not _BABBLE:
        for voice, text in zip(BABBLE_VOICES, BABBLE_TEXT):
            a = synth(espeak(voice), text, 1.0, os.path.join(workdir, "_babble.wav"))
            _BABBLE[voice] = a / max(1e-9, np.std(a))
    out = np.zeros(n)
    for a in _BABBLE.values():
        looped = np.tile(a, n // len(a) + 2)
        start = rng.integers(0, len(a))
        out += looped[start:start + n]
    return out


def noise(kind, n, seed, workdir):
    rng = np.random.default_rng(seed)
    if kind == "pink":
        return np.array(dev.pink(n, seed), dtype=np.float64)
    if kind == "brown":
        return np.array(heldout.brown(n, seed), dtype=np.float64)
    if kind == "tap":
        return tap(n, rng)
    if kind == "fan":
        return fan(n, rng)
    if kind == "music":
        return music(n, rng)
    return babble(n, rng, workdir)


def mixed(clean, kind, snr, level, seed, workdir):
    if kind is None:
        return clean * min(1.0, 30000 / max(1.0, np.max(np.abs(clean))))
    z = noise(kind, len(clean), seed, workdir)
    a = clean + z * (level / max(1.0, np.sqrt(np.mean(z * z))) / 10 ** (snr / 20))
    # Turned down rather than clipped: clipping is the mix's, not the speaker's input.
    return a * min(1.0, 30000 / max(1.0, np.max(np.abs(a))))


def build(outdir, ncommands):
    os.makedirs(outdir, exist_ok=True)
    cmds = [c for c in dev.COMMANDS if c[1] != "resume"][:ncommands]
    manifest = os.path.join(outdir, "manifest.jsonl")
    old = {r["id"]: r for r in map(json.loads, open(manifest))} if os.path.exists(manifest) else {}
    rows, made = [], 0
    for si, ((split, group), voices) in enumerate(VOICES.items()):
        for vi, (voice, spec) in enumerate(voices.items()):
            for ci, (intent, text) in enumerate(cmds):
                ids = [f"{voice}-{ci:02d}-{cond}" for cond, _, _ in CONDITIONS]
                if all(i in old and old[i]["text"] == text and os.path.exists(old[i]["file"]) for i in ids):
                    rows += [old[i] for i in ids]
                    continue
                rate = RATES[ci % len(RATES)]
                wake = synth(spec, "susi", rate, os.path.join(outdir, "_w.wav"))
                cmd = synth(spec, text, 1.0, os.path.join(outdir, "_c.wav"))
                clean = np.concatenate([np.zeros(int(0.7 * RATE)), wake, np.zeros(int(GAP * RATE)), cmd,
                                        np.zeros(int(1.2 * RATE))])
                level = np.sqrt(np.mean(np.concatenate([wake, cmd]) ** 2))
                wake_end = 700 + len(wake) * 1000 // RATE
                start = wake_end + int(GAP * 1000)
                for (cond, kind, snr), uid in zip(CONDITIONS, ids):
                    seed = 9000 + si * 10000 + vi * 1000 + ci * 10 + CONDITIONS.index((cond, kind, snr))
                    a = mixed(clean, kind, snr, level, seed, outdir)
                    path = os.path.join(outdir, uid + ".wav")
                    dev.write(path, dev.array.array("h", np.clip(np.round(a), -32768, 32767).astype(np.int16).tobytes()))
                    made += 1
                    rows.append(dict(id=uid, file=path, voice=voice, group=group, split=split, condition=cond,
                                     intent=intent, text=text, rate=rate, wake_ms=700, wake_end_ms=wake_end,
                                     command_start_ms=start, speech_end_ms=start + len(cmd) * 1000 // RATE))
    with open(manifest, "w") as f:
        f.writelines(json.dumps(r) + "\n" for r in rows)
    print(f"{len(rows)} files in {outdir} ({made} made now)", file=sys.stderr)
    return rows


STAGES = ["clipped", "gate", "head", "decision", "verifier"]


def lost_at(r):
    """The first stage that lost the name in a stage row of `susi-bench --wake-stages`."""
    if r["woke"]:
        return None
    if r["clipped"] > 0:
        return "clipped"
    if not r["gate_fed"]:
        return "gate"
    if not r["head_reached"]:
        return "head"
    if not r["candidate"]:
        return "decision"
    return "verifier"


def pct(a, b):
    return f"{a / b:.0%}" if b else "-"


def tables(rows, results, settings):
    groups = ["low male", "male", "female", "child-like"]
    conds = [c for c, _, _ in CONDITIONS]
    by_id = {r["id"]: r for r in rows}
    out = []
    for split in ["dev", "held-out"]:
        out += [f"**{split}** voices: " + "; ".join(
            f"{g}: {', '.join(VOICES[(split, g)])}" for g in groups), "",
                "| group | setting | " + " | ".join(conds) + " |", "|---|---|" + "---|" * len(conds)]
        for g in groups:
            for s in settings:
                cells = []
                for c in conds:
                    rs = [r for r in results[s] if by_id[r["id"]]["split"] == split and by_id[r["id"]]["group"] == g
                          and by_id[r["id"]]["condition"] == c]
                    cells.append(pct(sum(r["woke"] for r in rs), len(rs)))
                out.append(f"| {g} | {s} | " + " | ".join(cells) + " |")
        out.append("")
        # Where the misses were lost, and the head's peak near the name: median over the misses.
        out += ["| group | setting | noise | misses | lost at: " + " / ".join(STAGES) +
                " | peak score of misses (median, max) | voiced 20 ms blocks in the name (median of misses) |",
                "|---|---|---|---|---|---|---|"]
        for g in groups:
            for s in settings:
                for c in conds:
                    rs = [r for r in results[s] if by_id[r["id"]]["split"] == split and by_id[r["id"]]["group"] == g
                          and by_id[r["id"]]["condition"] == c and not r["woke"]]
                    if not rs:
                        continue
                    counts = [sum(lost_at(r) == st for r in rs) for st in STAGES]
                    peaks = sorted(r["peak"] for r in rs)
                    voiced = sorted(r["name_voiced_blocks"] for r in rs)
                    out.append(f"| {g} | {s} | {c} | {len(rs)} | {' / '.join(map(str, counts))} | "
                               f"{peaks[len(peaks) // 2]:.3f}, {peaks[-1]:.3f} | {voiced[len(voiced) // 2]} |")
        out.append("")
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=os.path.join(HERE, "out", "wake-stages"))
    parser.add_argument("--bench", default=os.path.join(ROOT, ".build/release/susi-bench"))
    parser.add_argument("--commands", type=int, default=4)
    parser.add_argument("--setting", action="append", default=[],
                        help="NAME=key=value,key=value: a `--set` list for the bench tool (default: today's);"
                             " models=DIR among them: that models directory (another head)")
    parser.add_argument("--build-only", action="store_true")
    parser.add_argument("--table-only", action="store_true", help="tables from OUT/stages-NAME.jsonl")
    opts = parser.parse_args()
    rows = build(opts.out, opts.commands)
    if opts.build_only:
        return
    settings = {}
    for s in opts.setting or ["today="]:
        name, _, pairs = s.partition("=")
        settings[name] = [p for p in pairs.split(",") if p]
    results = {}
    for name, pairs in settings.items():
        path = os.path.join(opts.out, f"stages-{name}.jsonl")
        if not opts.table_only:
            # `models=DIR` in a setting: another models directory (another head) for it.
            models = next((p[len("models="):] for p in pairs if p.startswith("models=")), os.path.join(ROOT, "models"))
            argv = [opts.bench, "--models", models, "--wake-stages", opts.out]
            for p in pairs:
                if not p.startswith("models="):
                    argv += ["--set", p]
            with open(path, "w") as f:
                subprocess.run(argv, check=True, stdout=f, cwd=ROOT)
        results[name] = [json.loads(line) for line in open(path)]
    print(tables(rows, results, list(settings)))


if __name__ == "__main__":
    main()
