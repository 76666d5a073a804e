#!/usr/bin/env python3
"""Open-question benchmark: what people ask beyond the skills, heard by this project's
recogniser and by stock PocketSphinx (generic en-us model, `pocketsphinx_batch`) in one run.

usage: bench/open-questions.py [--out DIR] [--voices-per-question N] [--results FILE] [--set KEY=VALUE ...]

The questions are bench/open-questions.tsv: a dev split (the query-domain templates and
entity lists were written with it in view), a dev-generic split (tuned on too, but its key
words are in no list: generic English) and a held-out split whose phrasings and names
are kept out of models/language. Each question is said as "susi" + 0.3 s + the question by N
of the dev voices (eSpeak NG en-us, en-gb+f3, en-gb-scotland, en-029+m3; flite slt and kal),
taken in turn, clean and in pink noise at 20 and 10 dB. Both systems get the audio from
150 ms before the question; ours is fed as `susi run` feeds it (the wake detector hears what
comes before). Scored per split and condition: word error rate, key-word recall (the words
of the third column: the city, the person, the title ...) and exact match. Writes the
section between the open-question markers of bench/RESULTS.md (which bench/accuracy.sh
keeps, as it keeps everything after its own tables).
Needs what dev-corpus.py needs (espeak-ng, flite, sox) and pocketsphinx.
"""
import argparse, collections, json, os, re, subprocess, sys, time

from devcorpus import dev, mix_under
from numberwords import spelled

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODEL = os.environ.get("SUSI_SPHINX_MODEL_DIR", "/usr/share/pocketsphinx/model/en-us")
VOICES = {
    "espeak-us": ["espeak-ng", "-v", "en-us", "-w", "{out}", "{text}"],
    "espeak-gb-f3": ["espeak-ng", "-v", "en-gb+f3", "-w", "{out}", "{text}"],
    "espeak-scotland": ["espeak-ng", "-v", "en-gb-scotland", "-s", "150", "-w", "{out}", "{text}"],
    "espeak-029-m3": ["espeak-ng", "-v", "en-029+m3", "-w", "{out}", "{text}"],
    "flite-slt": ["flite", "-voice", "slt", "-t", "{text}", "-o", "{out}"],
    "flite-kal": ["flite", "-voice", "kal", "-t", "{text}", "-o", "{out}"],
}
GAP = 0.3
BEGIN, END = "<!-- open-questions:start -->", "<!-- open-questions:end -->"


def questions():
    rows = []
    for line in open(os.path.join(ROOT, "bench/open-questions.tsv")):
        if line.startswith("#") or not line.strip():
            continue
        split, text, keys = line.rstrip("\n").split("\t")
        rows.append(dict(split=split, text=text, keywords=keys.split()))
    return rows


def build(out, per_question):
    """The corpus in `out` (manifest.jsonl in the dev corpus's format plus split and keywords).
    Files of an earlier build are kept for the questions it already had (same text, same place)."""
    os.makedirs(out, exist_ok=True)
    dev.VOICES.update(VOICES)
    names = list(VOICES)
    manifest = os.path.join(out, "manifest.jsonl")
    earlier = {}
    if os.path.exists(manifest):
        for line in open(manifest):
            row = json.loads(line)
            earlier[row["id"]] = row
    wakes = {}
    rows, made = [], set()
    for qi, q in enumerate(questions()):
        for k in range(per_question):
            voice = names[(qi + k * 3) % len(names)]
            kept = [earlier.get(f"q{qi:03d}-{voice}-{cond}") for cond, _ in dev.CONDITIONS]
            if all(r and r["text"] == q["text"] and os.path.exists(r["file"]) for r in kept):
                rows += [dict(r, split=q["split"], keywords=q["keywords"]) for r in kept]
                continue
            if voice not in wakes:
                wakes[voice] = dev.trim(dev.synth(voice, "susi", os.path.join(out, "_w.wav")))
            speech = dev.trim(dev.synth(voice, q["text"], os.path.join(out, "_q.wav")))
            wake = wakes[voice]
            clean = dev.silence(0.7) + wake + dev.silence(GAP) + speech + dev.silence(1.2)
            start_ms = int((0.7 * dev.RATE + len(wake) + GAP * dev.RATE) * 1000 / dev.RATE)
            level = dev.rms(wake + speech)
            for cond, snr in dev.CONDITIONS:
                uid = f"q{qi:03d}-{voice}-{cond}"
                path = os.path.join(out, uid + ".wav")
                if snr is None:
                    mixed = clean
                else:
                    mixed = mix_under(clean, dev.pink(len(clean), qi * 10 + k), level, snr)
                dev.write(path, mixed)
                made.add(uid)
                rows.append(dict(id=uid, file=path, voice=voice, condition=cond, intent="open", text=q["text"],
                                 wake_ms=700, command_start_ms=start_ms,
                                 speech_end_ms=start_ms + len(speech) * 1000 // dev.RATE,
                                 split=q["split"], keywords=q["keywords"]))
    with open(manifest, "w") as f:
        f.writelines(json.dumps(r) + "\n" for r in rows)
    # Stock's readings of files made again are stale.
    hyp = os.path.join(out, "stock.hyp")
    if os.path.exists(hyp):
        kept = [line for line in open(hyp) if (hyp_line(line) or ("", ""))[1] not in made]
        with open(hyp, "w") as f:
            f.writelines(kept)
    print(f"{len(rows)} files in {out}", file=sys.stderr)


def hyp_line(line):
    """(reading, id) of a line of pocketsphinx_batch's -hyp file, or None."""
    m = re.match(r"^(.*) \((\S+)(?: -?\d+)?\)\s*$", line)
    return (m.group(1), m.group(2)) if m else None


def stock(out, rows):
    """Stock PocketSphinx's transcripts by id: generic en-us model and cmudict, its defaults.
    Kept in stock.hyp; only files it lacks are decoded."""
    hyp = os.path.join(out, "stock.hyp")

    def read(path):
        pairs = (hyp_line(line) for line in (open(path) if os.path.exists(path) else []))
        return {uid: reading for reading, uid in filter(None, pairs)}

    known = read(hyp)
    missing = [r for r in rows if r["id"] not in known]
    if missing:
        ctl, more = os.path.join(out, "stock.ctl"), os.path.join(out, "stock-more.hyp")
        with open(ctl, "w") as f:
            for r in missing:
                f.write(f"{r['id']} {max(0, (r['command_start_ms'] - 150) // 10)} 100000 {r['id']}\n")
        subprocess.run(["pocketsphinx_batch", "-adcin", "yes", "-adchdr", "44", "-cepext", ".wav",
                        "-hmm", f"{MODEL}/en-us", "-dict", f"{MODEL}/cmudict-en-us.dict",
                        "-lm", f"{MODEL}/en-us.lm.bin", "-cepdir", out, "-ctl", ctl, "-hyp", more],
                       check=True, stdout=subprocess.DEVNULL, stderr=open(os.path.join(out, "stock.log"), "w"))
        with open(hyp, "a") as f:
            f.write(open(more).read())
        known.update(read(more))
        os.remove(more)
    return known


def whisper(out, rows, susi):
    """Whisper's transcripts by id (`susi transcribe` with stt.engine whisper, the model as
    configured) of the audio from 150 ms before the question, as the stock system gets it; the
    pipeline hands Whisper the command from the wake word's end. With the seconds each took."""
    import tempfile
    work = tempfile.mkdtemp(prefix="susi-whisper-bench-")
    config = os.path.join(work, "config.json")
    subprocess.run([susi, "--quiet", "--config", config, "config", "set", "stt.engine", "whisper"], check=True,
                   stdout=subprocess.DEVNULL)
    heard, seconds = {}, []
    for r in rows:
        cut = os.path.join(work, "cut.wav")
        subprocess.run(["sox", os.path.join(out, r["id"] + ".wav"), cut, "trim",
                        str(max(0, r["command_start_ms"] - 150) / 1000)], check=True)
        started = time.time()
        result = subprocess.run([susi, "--quiet", "--config", config, "transcribe", cut], capture_output=True, text=True)
        seconds.append(time.time() - started)
        heard[r["id"]] = result.stdout.strip() if result.returncode == 0 else ""
    return heard, seconds


def words(text):
    return [w for word in re.sub(r"[^a-z0-9' ]", " ", text.lower()).replace("'", "").split() for w in spelled(word)]


def distance(ref, hyp):
    d = list(range(len(hyp) + 1))
    for i, r in enumerate(ref, 1):
        prev, d[0] = d[0], i
        for j, h in enumerate(hyp, 1):
            prev, d[j] = d[j], min(d[j] + 1, d[j - 1] + 1, prev + (r != h))
    return d[len(hyp)]


def score(rows, transcripts):
    """Per (split, condition): WER, key-word recall, exact match, files."""
    cells = collections.defaultdict(lambda: dict(err=0, words=0, keys=0, found=0, exact=0, files=0))
    for r in rows:
        ref, hyp = words(r["text"]), words(transcripts.get(r["id"], ""))
        for cell in (cells[(r["split"], r["condition"])], cells[(r["split"], "10-20 dB")] if r["condition"] != "clean" else None):
            if cell is None:
                continue
            cell["err"] += distance(ref, hyp)
            cell["words"] += len(ref)
            keys = [w for k in r["keywords"] for w in words(k)]
            cell["keys"] += len(keys)
            cell["found"] += sum(1 for w in keys if w in hyp)
            cell["exact"] += ref == hyp
            cell["files"] += 1
    return cells


def heldout_leaks():
    """Held-out names that may have been typed into models/language: runs of two or more key words that stand
    together in a held-out question (a person, a title, a place) and in no dev question, found
    in a class file or a template, and single key words of held-out questions found in a class file but in no dev
    question. For a person to read: most are ordinary words and phrasings."""
    def lines(folder):
        path = os.path.join(ROOT, "models/language", folder)
        for name in sorted(os.listdir(path)):
            for line in open(os.path.join(path, name)):
                if line.strip() and not line.startswith("#"):
                    yield name, " " + " ".join(words(line)) + " "
    entities = list(lines("classes"))
    written = entities + list(lines("templates"))
    dev_words = {w for q in questions() if q["split"].startswith("dev") for w in words(q["text"])}
    dev_text = "".join(" " + " ".join(words(q["text"])) + " " for q in questions() if q["split"].startswith("dev"))
    runs, singles = [], []
    for q in questions():
        if q["split"] != "heldout":
            continue
        text, keys = words(q["text"]), {w for k in q["keywords"] for w in words(k)}
        run = []
        for w in text + [""]:
            if w in keys:
                run.append(w)
                continue
            if len(run) >= 2 and " " + " ".join(run) + " " not in dev_text:
                phrase = " " + " ".join(run) + " "
                runs += [(" ".join(run), name) for name, line in written if phrase in line]
            run = []
        singles += [(w, name) for w in sorted(keys - dev_words) for name, line in entities if f" {w} " in line]
    return sorted(set(runs)), sorted(set(singles))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=os.path.join(ROOT, "bench/out/questions"))
    parser.add_argument("--voices-per-question", type=int, default=2)
    parser.add_argument("--results", default=os.path.join(ROOT, "bench/RESULTS.md"))
    parser.add_argument("--susi-bench", default=os.path.join(ROOT, ".build/release/susi-bench"))
    parser.add_argument("--set", action="append", default=[], help="a susi-bench setting (KEY=VALUE)")
    parser.add_argument("--whisper", metavar="SUSI", help="also Whisper, through this susi binary's `transcribe`")
    parser.add_argument("--no-write", action="store_true", help="print only, leave RESULTS.md alone")
    parser.add_argument("--corpus-only", action="store_true", help="build the corpus and stop")
    parser.add_argument("--check-heldout", action="store_true",
                        help="list held-out key words and phrases found in models/language, for a person to read "
                             "(compare the list before and after a change of models/language: it must not grow)")
    opts = parser.parse_args()
    if opts.check_heldout:
        runs, singles = heldout_leaks()
        for word, name in singles:
            print(f"held-out key word {word!r} is in classes/{name} (read it: an ordinary word or a leaked name?)")
        for phrase, name in runs:
            print(f"held-out phrase {phrase!r} is in {name}")
        return
    build(opts.out, opts.voices_per_question)
    if opts.corpus_only:
        return
    rows = [json.loads(line) for line in open(os.path.join(opts.out, "manifest.jsonl"))]
    started = time.time()
    stock_hyps = stock(opts.out, rows)
    ours_file = os.path.join(opts.out, "susi.tsv")
    argv = [opts.susi_bench, "--questions", opts.out, "--questions-out", ours_file,
            "--cache", os.path.join(ROOT, "bench/out/cache"), "--models", os.path.join(ROOT, "models"),
            "--skills", os.path.join(ROOT, "models/skills")]
    for item in opts.set:
        argv += ["--set", item]
    subprocess.run(argv, check=True)
    ours, finish = {}, []
    for line in open(ours_file):
        uid, reading, _best, ms = line.rstrip("\n").split("\t")[:4]
        ours[uid] = reading
        finish.append(float(ms))
    finish.sort()
    ours_cells, stock_cells = score(rows, ours), score(rows, stock_hyps)
    systems = [("stock", stock_cells), ("susi", ours_cells)]
    if opts.whisper:
        heard, whisper_seconds = whisper(opts.out, rows, opts.whisper)
        systems.append(("whisper", score(rows, heard)))

    lines = [BEGIN]
    n_q = collections.Counter(q["split"] for q in questions())
    lines.append(f"{n_q['dev']} dev, {n_q['dev-generic']} dev-generic (key words in no list) and {n_q['heldout']} "
                 f"held-out questions (`bench/open-questions.tsv`), each said as "
                 f"\"susi\" + {GAP} s + the question by {opts.voices_per_question} of the dev voices in turn "
                 f"(eSpeak NG en-us, en-gb+f3, en-gb-scotland, en-029+m3; flite slt, kal), clean and in pink noise "
                 f"at 20 and 10 dB: {len(rows)} files. **stock**: `pocketsphinx_batch` with `en-us.lm.bin` and cmudict; "
                 f"**susi**: `Hearing.makeEars` with the defaults, the reading the pipeline sends. Key words: the words "
                 f"a server needs (city, person, title ...). Settings: {' '.join(opts.set) or 'the defaults'}.")
    lines.append("")
    lines.append("| split | condition | system | WER | key-word recall | exact match | files |")
    lines.append("|---|---|---|---|---|---|---|")
    for split in ("heldout", "dev", "dev-generic"):
        for cond in ("clean", "pink20", "pink10", "10-20 dB"):
            for name, cells in systems:
                c = cells.get((split, cond))
                if not c:
                    continue
                lines.append(f"| {split} | {cond} | {name} | {100 * c['err'] / max(1, c['words']):.1f}% | "
                             f"{100 * c['found'] / max(1, c['keys']):.1f}% | {100 * c['exact'] / max(1, c['files']):.1f}% | "
                             f"{c['files']} |")
    p95 = finish[min(len(finish) - 1, int(len(finish) * 0.95))] if finish else 0
    lines += ["", f"- susi: recogniser finish (last audio to transcript) p95 {p95:.0f} ms on these files; "
              f"run took {time.time() - started:.0f} s"]
    if opts.whisper:
        lines.append(f"- whisper: `susi transcribe` with stt.engine whisper (tiny.en unless configured), the whole process "
                     f"(start, model load, transcription) median {1000 * sorted(whisper_seconds)[len(whisper_seconds) // 2]:.0f} ms "
                     f"per file, slowest {1000 * max(whisper_seconds):.0f} ms")
    lines += ["", END]
    section = "\n".join(lines) + "\n"
    print(section)
    if opts.no_write:
        return
    text = open(opts.results).read() if os.path.exists(opts.results) else ""
    if BEGIN in text and END in text:
        text = text[:text.index(BEGIN)] + section.rstrip("\n") + text[text.index(END) + len(END):]
    else:
        text = text.rstrip("\n") + "\n\n" + section
    with open(opts.results, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
