#!/usr/bin/env python3
"""Issue 49's name check (`hotword.name_check`) through `susi run`: false wakes it removes in
speech without the name, and wake words it loses, side by side in one run.

Each file runs once through the release binary with `stt.engine whisper`, the name check on and
the built-in brain. The check comes after the wake word detector's decision, so every run
gives both figures: the detector's wakes (what the speaker did without the check) and those
left once the wakes the check dropped (`error` event `wake-name-not-heard`) are taken away.
  * --negatives DIR (repeatable): a `negatives.jsonl` set (`bench/heldout.py --conversation`,
    `--negatives`, dev-corpus.py `--negatives`): false wakes per hour without and with the check;
  * --corpus DIR (repeatable): a `manifest.jsonl` of "susi" + command files: files woken
    without and with the check, per voice group (where the manifest names one) and condition.
Every wake in speech without the name, and every wake word the check dropped, goes to
OUT/wakes.tsv with what was heard, for reading.

usage: bench/name-check.py [--susi BIN] [--negatives DIR]... [--corpus DIR]... [--every N] [--out DIR]
"""
import argparse, collections, json, os, subprocess, sys, tempfile, time

from importlib import util

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_spec = util.spec_from_file_location("pipeline", os.path.join(ROOT, "bench", "pipeline.py"))
pipeline = util.module_from_spec(_spec)
_spec.loader.exec_module(pipeline)


def wakes(events):
    """[(audio_ms, dropped, what was heard)] for each wake event, in order: what Whisper heard
    for a dropped wake, the transcript of a kept one."""
    found = []
    for e in events:
        if e["event"] == "wake":
            found.append([e["audio_ms"], False, ""])
        elif e["event"] == "error" and e.get("code") == "wake-name-not-heard" and found:
            found[-1][1:] = [True, e.get("message", "")]
        elif e["event"] == "transcript" and found:
            found[-1][2] = e.get("text", "")
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--susi", default=os.path.join(ROOT, ".build/release/susi"))
    parser.add_argument("--negatives", action="append", default=[])
    parser.add_argument("--corpus", action="append", default=[])
    parser.add_argument("--every", type=int, default=1, help="keep every Nth corpus file")
    parser.add_argument("--out", default=os.path.join(ROOT, "bench/out/name-check"))
    opts = parser.parse_args()
    os.makedirs(opts.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="susi-name-check-")
    config = os.path.join(work, "config.json")
    for key, value in [("brain.mode", "local"), ("stt.engine", "whisper"), ("hotword.name_check", "true")]:
        subprocess.run([opts.susi, "--quiet", "--config", config, "config", "set", key, value], check=True,
                       stdout=subprocess.DEVNULL)
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache"))
    answer = os.path.join(work, "answer.wav")
    wakes_log = open(os.path.join(opts.out, "wakes.tsv"), "w", buffering=1)
    lines, started = [], time.time()

    def run(path):
        events, _, _ = pipeline.run_susi(opts.susi, config, ["--input", path, "--output", answer], env)
        return wakes(events)

    for directory in opts.negatives:
        rows = [json.loads(line) for line in open(os.path.join(directory, "negatives.jsonl"))]
        seconds, detected, kept = 0.0, 0, 0
        for row in rows:
            path = pipeline.located(row["file"], directory)
            seconds += pipeline.duration(path)
            for at, dropped, heard in run(path):
                detected += 1
                kept += not dropped
                wakes_log.write(f"{os.path.basename(path)}\t{at}\t{'dropped' if dropped else 'kept'}\t\t{heard}\n")
        hours = seconds / 3600
        lines.append(f"| {os.path.basename(directory.rstrip('/'))} (no name) | {hours:.2f} h | "
                     f"{detected} ({detected / hours:.2f} per hour) | **{kept} ({kept / hours:.2f} per hour)** |")
        print(lines[-1], f"  {time.time() - started:.0f} s", file=sys.stderr)

    for directory in opts.corpus:
        rows = [json.loads(line) for line in open(os.path.join(directory, "manifest.jsonl"))][::opts.every]
        cells = collections.OrderedDict()
        for row in rows:
            found = run(pipeline.located(row["file"], directory))
            cell = cells.setdefault((row.get("group", ""), row["condition"]), [0, 0, 0])
            cell[0] += 1
            cell[1] += bool(found)
            cell[2] += any(not dropped for _, dropped, _ in found)
            for at, dropped, heard in found:
                if dropped:
                    wakes_log.write(f"{row['id']}\t{at}\tdropped\t{row['text']}\t{heard}\n")
        for (group, condition), (files, detected, kept) in cells.items():
            where = " ".join(part for part in [os.path.basename(directory.rstrip("/")), group, condition] if part)
            lines.append(f"| {where} | {files} files | {detected} ({detected / files:.0%}) | "
                         f"**{kept} ({kept / files:.0%})** |")
            print(lines[-1], f"  {time.time() - started:.0f} s", file=sys.stderr)
    wakes_log.close()
    subprocess.run(["rm", "-rf", work])
    print("| set | size | woken without the check | woken with it |")
    print("|---|---|---|---|")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
