#!/usr/bin/env python3
"""Offline screen of the PocketSphinx wake verifier on the head's own candidates, in training
voices only (bench/history/RESULTS-2026-12-05.md, sixteenth round): which names would the verifier lose, and which
sure false wakes would it stop, if it heard the candidates the head is sure of too?

usage: verifier_screen.py make OUTDIR [--names N] [--words N] [--seed S] [--jobs J]
       verifier_screen.py decode OUTDIR [--prior P] [--pronunciation "S UW L IY" ...] [--dev-corpus DIR]

make: N "susi <command>" and N dictionary words sharing two sounds with the name (texts.py
`words_unlike`, never the bench's fifth), each said once by a training voice (data.py's
`Synth`, eSpeak NG accents and variants and flite slt, with its augmentations) after 2.2-3 s of
quiet and before 0.8 s, over brown or pink noise 30, 20 or 10 dB under the speech. The committed
head (models/hotword/susi.head.json) scores each clip; its first candidate (its steps in a row
at its threshold) is written as the verifier would hear it (900 ms before the candidate's end to 200
ms after, WAV), with whether the head was sure of it (its sure threshold within three more
steps). Every clip has its own seed: the same files whatever --jobs.

decode: decodes the windows as the verifier does (a unigram model of the phrase, at prior P,
against VerifiedWakeWordDetector.swift's common words; `pocketsphinx_batch`, one pass, dither)
and counts the windows whose best reading holds "susi": names by accent and by noise, and the
words' sure and unsure candidates; and how many of the names and of the words' sure candidates
the head's score peaks at 0.9 or 0.99. --pronunciation adds pronunciations of "susi" to models/hotword/susi.dict's.
--dev-corpus DIR also decodes the dev corpus's names (from 300 ms before the name to 100 ms
after the command starts), by voice and condition. The live verifier shares the recogniser's
decoder and options and hears windows placed by the head, so its figures differ.
"""
import argparse, collections, json, math, multiprocessing, os, random, re, subprocess, tempfile, wave

import numpy as np

from combine import member_scores
from data import RATE, Synth, coloured, rms, silence
from frontend import FrontEnd, embedding_end_sample
from texts import DICTIONARY, words_unlike
from train import WINDOW, head_members, windows

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
COMMANDS = ["what time is it", "play some music", "turn it down", "what is the weather", "tell me a joke",
            "stop", "next song", "set a timer for five minutes", "who are you", "pause"]


def _clip(task):
    """One clip of `make` (kind, index, seed): its manifest row, the window written if a candidate."""
    kind, index, seed, out = task
    front, head = WORKER["front"], WORKER["head"]
    rnd = random.Random(f"{seed}-{kind}-{index}")
    synth = Synth(rnd, WORKER["tmp"])
    voice = synth.voice("train", made=False)
    text = rnd.choice(words_unlike("susi")[1]) if kind == "word" else "susi " + rnd.choice(COMMANDS)
    row = dict(name=f"{kind}-{index:05d}", kind=kind, text=text, voice=voice[1][1])
    try:
        speech = synth.say(voice[1], text)
    except subprocess.CalledProcessError:
        return None
    if len(speech) == 0:
        return None
    # The head's first window ends 2 s into a stream: the speech comes after that.
    clip = np.concatenate([silence(rnd.uniform(2.2, 3.0)), speech, silence(0.8)])
    floor, colour = rnd.choice([30, 20, 10]), rnd.choice(["brown", "pink"])
    noise = coloured(len(clip), colour, rnd)
    clip = clip + noise * (rms(speech) / max(rms(noise), 1e-6) / 10 ** (floor / 20))
    clip = np.clip(clip * (10000 / (np.abs(clip).max() + 1)), -32768, 32767).astype(np.int16)
    row["floor"] = f"{colour}{floor}"
    scores = head(front.embeddings(clip))
    steps = WORKER["steps"]
    found = next((k for k in range(steps - 1, len(scores)) if min(scores[k - steps + 1:k + 1]) >= WORKER["threshold"]), None)
    row["candidate"] = found is not None
    if found is None:
        return row
    row["sure"] = bool(scores[found:found + 4].max() >= WORKER["sure"])
    row["peak"] = round(float(scores.max()), 5)
    end = embedding_end_sample(found + WORKER["window"] - 1)
    with wave.open(os.path.join(out, row["name"] + ".wav"), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(clip[max(0, end - 14400):end + 3200].tobytes())
    return row


WORKER = {}


def _start():
    head, members = head_members(os.path.join(REPO, "models", "hotword", "susi.head.json"))
    assert head["combine"] == "min"
    groups = np.cumsum([0] + head["groups"])

    def score(emb):
        """The joined head's score of every full window of `emb`, first window first."""
        if len(emb) < WINDOW:
            return np.zeros(0)
        x = windows(emb, np.arange(WINDOW - 1, len(emb)))
        return np.min([member_scores(members[a:b], x) for a, b in zip(groups, groups[1:])], axis=0)

    WORKER.update(front=FrontEnd(os.path.join(REPO, "models", "hotword", "frontend")), head=score, window=WINDOW,
                  steps=head["steps"], threshold=head["threshold"], sure=head["sure_threshold"], tmp=tempfile.mkdtemp())


def make(args):
    os.makedirs(args.out, exist_ok=True)
    tasks = [(kind, i, args.seed, args.out) for kind, n in (("name", args.names), ("word", args.words)) for i in range(n)]
    with multiprocessing.Pool(args.jobs, initializer=_start) as pool:
        rows = [row for row in pool.imap(_clip, tasks, chunksize=8) if row]
    with open(os.path.join(args.out, "manifest.jsonl"), "w") as f:
        f.writelines(json.dumps(row) + "\n" for row in rows)
    for kind in ("name", "word"):
        mine = [r for r in rows if r["kind"] == kind]
        print(f"{kind}s: {len(mine)} clips, {sum(r['candidate'] for r in mine)} candidates, "
              f"{sum(r.get('sure', False) for r in mine)} sure")


def verifier_model(directory, prior, pronunciations):
    """The verifier's unigram model and dictionary (as VerifiedWakeWordDetector writes them),
    with `pronunciations` added to the phrase's: their paths."""
    source = open(os.path.join(REPO, "Sources", "SusiSpeech", "Wake", "VerifiedWakeWordDetector.swift")).read()
    listed = re.search(r'static let commonWords: \[String\] = """(.*?)"""', source, re.S).group(1).split()
    common = [w for i, w in enumerate(listed) if w != "susi" and w not in listed[:i]]
    weight = prior * len(common) / (1 - prior)
    total = len(common) + weight
    arpa = os.path.join(directory, "verifier.arpa")
    with open(arpa, "w") as f:
        f.write(f"\\data\\\nngram 1={len(common) + 3}\n\n\\1-grams:\n-99 <s>\n{math.log10(1 / (len(common) + 1)):.4f} </s>\n")
        f.write(f"{math.log10(weight / total):.4f} susi\n")
        f.writelines(f"{math.log10(1 / total):.4f} {w}\n" for w in common)
        f.write("\n\\end\\\n")
    dictionary = os.path.join(directory, "verifier.dict")
    with open(dictionary, "w") as f:
        f.writelines(line for line in open(DICTIONARY)
                     if re.sub(r"\(\d+\)$", "", line.split()[0]) in common)
        own = [line for line in open(os.path.join(REPO, "models", "hotword", "susi.dict")) if line.strip() and line[0] != "#"]
        f.writelines(own)
        f.writelines(f"susi({len(own) + 1 + i}) {p}\n" for i, p in enumerate(pronunciations))
    return arpa, dictionary


def heard(directory, names, model):
    """The names (WAVs in `directory`) whose best reading holds "susi"."""
    with tempfile.TemporaryDirectory() as tmp:
        control, hypotheses = os.path.join(tmp, "ctl"), os.path.join(tmp, "hyp")
        open(control, "w").write("\n".join(names) + "\n")
        subprocess.run(["pocketsphinx_batch", "-adcin", "yes", "-adchdr", "44", "-cepdir", directory, "-cepext", ".wav",
                        "-ctl", control, "-hyp", hypotheses, "-lm", model[0], "-dict", model[1], "-dither", "yes",
                        "-fwdflat", "no", "-bestpath", "no", "-logfn", "/dev/null"], check=True)
        found = set()
        for line in open(hypotheses):
            words, _, rest = line.rpartition("(")
            if "susi" in (re.sub(r"\(\d+\)$", "", w) for w in words.split()):
                found.add(rest.split()[0])
        return found


def tally(rows, keys, hit):
    """For each key `keys(row)` gives any of `rows`: how many of its rows `hit` and how many
    there are, by key in order."""
    table = collections.defaultdict(lambda: [0, 0])
    for r in rows:
        for key in keys(r):
            table[key][0] += hit(r)
            table[key][1] += 1
    return sorted((key, a, b) for key, (a, b) in table.items())


def decode(args):
    with tempfile.TemporaryDirectory() as tmp:
        model = verifier_model(tmp, args.prior, args.pronunciation)
        rows = [json.loads(line) for line in open(os.path.join(args.out, "manifest.jsonl"))]
        rows = [r for r in rows if r["candidate"]]
        found = heard(args.out, [r["name"] for r in rows], model)

        def count(selected, key):
            (_, heard_all, all_), *parts = tally(selected, lambda r: ["", key(r)], lambda r: r["name"] in found)
            return f"{heard_all}/{all_} (" + ", ".join(f"{k} {a}/{b}" for k, a, b in parts) + ")"

        print(f"prior {args.prior}, pronunciations added: {args.pronunciation or 'none'}")
        names = [r for r in rows if r["kind"] == "name"]
        print("names heard:", count(names, lambda r: r["voice"].split("+")[0]))
        print("names heard by noise:", count(names, lambda r: r["floor"][-2:] + " dB"))
        words = [r for r in rows if r["kind"] == "word"]
        print("words' sure candidates taken for the name:", count([r for r in words if r["sure"]], lambda r: r["floor"][-2:] + " dB"))
        print("words' other candidates taken for the name:", count([r for r in words if not r["sure"]], lambda r: r["floor"][-2:] + " dB"))
        for level in (0.9, 0.99):
            share = lambda selected, level=level: f"{sum(r['peak'] >= level for r in selected) / max(1, len(selected)):.1%}"
            print(f"the head's peak at {level} or more: names {share(names)}, "
                  f"sure word candidates {share([r for r in words if r['sure']])}")
        if args.dev_corpus:
            cut = os.path.join(tmp, "dev")
            os.makedirs(cut)
            dev = [json.loads(line) for line in open(os.path.join(args.dev_corpus, "manifest.jsonl"))]
            for r in dev:
                subprocess.run(["sox", os.path.join(os.path.dirname(args.dev_corpus.rstrip("/")), r["file"]),
                                os.path.join(cut, r["id"] + ".wav"), "trim", str(max(0, r["wake_ms"] - 300) / 1000),
                                f"={(r['command_start_ms'] + 100) / 1000}"], check=True)
            found = heard(cut, [r["id"] for r in dev], model)
            table = tally(dev, lambda r: [r["condition"], f"{r['voice']} {r['condition']}"], lambda r: r["id"] in found)
            print("dev corpus names heard:", ", ".join(f"{k} {a}/{b}" for k, a, b in table if " " not in k))
            print("  short of all:", ", ".join(f"{k} {a}/{b}" for k, a, b in table if " " in k and a < b))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    maker = commands.add_parser("make")
    maker.add_argument("out")
    maker.add_argument("--names", type=int, default=200)
    maker.add_argument("--words", type=int, default=1400)
    maker.add_argument("--seed", type=int, default=16)
    maker.add_argument("--jobs", type=int, default=2)
    decoder = commands.add_parser("decode")
    decoder.add_argument("out")
    decoder.add_argument("--prior", type=float, default=0.3)
    decoder.add_argument("--pronunciation", action="append", default=[])
    decoder.add_argument("--dev-corpus")
    args = parser.parse_args()
    if args.command == "make":
        make(args)
    else:
        decode(args)


if __name__ == "__main__":
    main()
