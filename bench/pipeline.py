#!/usr/bin/env python3
"""End-to-end pipeline benchmark for `susi run` on the dev corpus.

Runs the real binary on dev-corpus files (built on first use) with the built-in brain and
reports, side by side in one run:
  * wake rate, command word error rate (over the files where the wake word was heard) and
    answered rate (a skill other than the fallback answered, over all files), per noise
    condition, with files read as fast as possible;
  * with a corpus that says where "susi" ends (`bench/heldout.py`'s), where the command was
    heard from (the `wake` event's audio_ms) relative to that end;
  * latency from the end of the person's speech to the first answer audio (`speak_start`),
    median and 95th percentile, with `--realtime` input (audio arrives as from a microphone);
  * CPU seconds per audio second while idle-listening (real-time input of speech without the
    wake word, start-up cost subtracted) and peak resident memory (`--input` holds the whole
    file in memory, 32 KB per second of it: 2 MB in the 60 s idle runs).
Each binary builds its own model cache in a first run that is not counted.
Writes bench/out/pipeline.json (or --json) and prints a Markdown table.

usage: bench/pipeline.py [--susi BIN] [--baseline BIN] [--baseline-set KEY=VALUE]... [--corpus DIR] [--every N]
                         [--realtime-files N]
"""
import argparse, json, os, resource, subprocess, sys, tempfile, time, wave

from numberwords import spelled

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOLS = os.path.join(os.path.dirname(ROOT), "shared", "tools", "dev-corpus.py")


def run_susi(susi, config, args, env=None):
    """Runs susi and returns (events, cpu seconds, peak RSS in MiB); names a run over 200 MiB (Whisper tiny.en's target)."""
    with tempfile.NamedTemporaryFile(suffix=".jsonl", delete=False) as events_file:
        events_path = events_file.name
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.Popen([susi, "--quiet", "--config", config, "run", *args, "--events", events_path],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, _, usage = os.wait4(proc.pid, 0)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    with open(events_path) as f:
        events = [json.loads(line) for line in f if line.strip()]
    os.unlink(events_path)
    rss = usage.ru_maxrss / 1024
    if rss > 200:
        print(f"  over 200 MiB: {' '.join(args)}: {rss:.0f} MiB", file=sys.stderr)
    return events, cpu, rss


def normalized(text):
    words = "".join(c if c.isalnum() or c in " '" else " " for c in text.lower()).replace("'", "").split()
    return [w for word in words for w in spelled(word)]


def word_errors(reference, hypothesis):
    ref, hyp = normalized(reference), normalized(hypothesis)
    d = list(range(len(hyp) + 1))
    for i, r in enumerate(ref, 1):
        prev, d[0] = d[0], i
        for j, h in enumerate(hyp, 1):
            prev, d[j] = d[j], min(d[j] + 1, d[j - 1] + 1, prev + (r != h))
    return d[len(hyp)], len(ref)


def percentile(values, fraction):
    values = sorted(values)
    return values[min(len(values) - 1, int(round((len(values) - 1) * fraction)))] if values else float("nan")


def duration(path):
    with wave.open(path) as w:
        return w.getnframes() / w.getframerate()


def located(path, directory):
    """A manifest path, which is relative to wherever dev-corpus.py was run; the file sits in `directory`."""
    return path if os.path.isabs(path) and os.path.exists(path) else os.path.join(directory, os.path.basename(path))


def ensure_corpus(corpus, negatives):
    if not os.path.exists(os.path.join(corpus, "manifest.jsonl")):
        subprocess.run([sys.executable, TOOLS, corpus], check=True)
    if not os.path.exists(os.path.join(negatives, "negatives.jsonl")):
        subprocess.run([sys.executable, TOOLS, negatives, "--negatives"], check=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--susi", default=os.path.join(ROOT, ".build/release/susi"))
    parser.add_argument("--corpus", default=os.path.join(ROOT, "bench/out/corpus"))
    parser.add_argument("--negatives", default=os.path.join(ROOT, "bench/out/negatives"))
    parser.add_argument("--every", type=int, default=4, help="use every Nth corpus file")
    parser.add_argument("--realtime-files", type=int, default=64)
    parser.add_argument("--idle-seconds", type=float, default=60)
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="a config value for the runs")
    parser.add_argument("--accuracy-only", action="store_true", help="skip the real-time latency and idle runs")
    parser.add_argument("--baseline", help="another susi binary whose real-time latency and memory are measured "
                        "on the same files, each right after this one's run")
    parser.add_argument("--baseline-set", action="append", default=[], metavar="KEY=VALUE",
                        help="a config value for the baseline's runs only (the baseline is this binary unless "
                        "--baseline names another)")
    parser.add_argument("--json", default=os.path.join(ROOT, "bench/out/pipeline.json"), help="where the results go")
    opts = parser.parse_args()
    if opts.baseline_set and not opts.baseline:
        opts.baseline = opts.susi
    ensure_corpus(opts.corpus, opts.negatives)
    rows = [json.loads(line) for line in open(os.path.join(opts.corpus, "manifest.jsonl"))]
    for row in rows:
        row["file"] = located(row["file"], opts.corpus)
    rows = rows[::opts.every]
    work = tempfile.mkdtemp(prefix="susi-bench-")
    config = os.path.join(work, "config.json")
    for key, value in [("brain.mode", "local")] + [tuple(item.split("=", 1)) for item in opts.set]:
        subprocess.run([opts.susi, "--quiet", "--config", config, "config", "set", key, value], check=True,
                       stdout=subprocess.DEVNULL)
    baseline_config = os.path.join(work, "baseline.json")
    subprocess.run(["cp", config, baseline_config], check=True)
    for key, value in [tuple(item.split("=", 1)) for item in opts.baseline_set]:
        subprocess.run([opts.baseline, "--quiet", "--config", baseline_config, "config", "set", key, value], check=True,
                       stdout=subprocess.DEVNULL)
    answer_wav = os.path.join(work, "answer.wav")
    # Each binary gets its own model cache, built by one run that is not counted, so neither
    # measures a build or reuses models the other built (their cache keys may differ).
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache"))
    baseline_env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "baseline-cache"))
    for binary, binary_config, binary_env in [(opts.susi, config, env)] + (
            [(opts.baseline, baseline_config, baseline_env)] if opts.baseline else []):
        run_susi(binary, binary_config, ["--input", rows[0]["file"], "--output", answer_wav], binary_env)

    by_condition = {}
    # Where the command was heard from (the wake event's audio_ms), after the name's true end,
    # in corpora that say where it ends (bench/heldout.py's).
    end_errors = []
    peak_rss = 0.0
    for row in rows:
        events, _, rss = run_susi(opts.susi, config, ["--input", row["file"], "--output", answer_wav], env)
        peak_rss = max(peak_rss, rss)
        names = [e["event"] for e in events]
        transcript = next((e["text"] for e in events if e["event"] == "transcript"), "")
        answer = next((e for e in events if e["event"] == "answer"), None)
        stats = by_condition.setdefault(row["condition"], dict(files=0, woke=0, errors=0, words=0, answered=0))
        stats["files"] += 1
        # A wake the name check dropped (issue 49) did not wake the speaker.
        dropped = sum(e["event"] == "error" and e.get("code") == "wake-name-not-heard" for e in events)
        if names.count("wake") > dropped:
            errors, words = word_errors(row["text"], transcript)
            stats["woke"] += 1
            stats["errors"] += errors
            stats["words"] += words
        stats["answered"] += bool(answer and answer.get("skill") not in (None, "fallback"))
        wake = next((e for e in events if e["event"] == "wake"), None)
        if wake and "wake_end_ms" in row:
            end_errors.append(wake["audio_ms"] - row["wake_end_ms"])

    if end_errors:
        print(f"the command heard from, ms after the name's true end: 10th percentile "
              f"{percentile(end_errors, 0.1)}, median {percentile(end_errors, 0.5)}, "
              f"90th percentile {percentile(end_errors, 0.9)} ({len(end_errors)} wakes)")
    if opts.accuracy_only:
        print(f"accuracy only, {len(rows)} files of {opts.corpus}, settings {opts.set or 'default'}")
        print("| condition | files | wake rate | command WER (errors / words) | answered |")
        print("|---|---|---|---|---|")
        for condition, s in by_condition.items():
            print(f"| {condition} | {s['files']} | {s['woke'] / s['files']:.0%} | "
                  f"{s['errors'] / max(1, s['words']):.1%} ({s['errors']} / {s['words']}) | "
                  f"{s['answered'] / s['files']:.0%} ({s['answered']}) |")
        return

    latencies = []
    # With --baseline, the other binary runs each file right after this one (its own cache),
    # so both meet the same load on a shared machine.
    baseline = dict(latencies=[], rss=0.0)
    for row in rows[:opts.realtime_files]:
        runs = [(opts.susi, config, latencies, env)] + (
            [(opts.baseline, baseline_config, baseline["latencies"], baseline_env)] if opts.baseline else [])
        for binary, binary_config, into, binary_env in runs:
            events, _, rss = run_susi(binary, binary_config,
                                      ["--input", row["file"], "--output", answer_wav, "--realtime"], binary_env)
            if binary_env is env:
                peak_rss = max(peak_rss, rss)
            else:
                baseline["rss"] = max(baseline["rss"], rss)
            ready = next((e["wall_ms"] for e in events if e["event"] == "ready"), None)
            # The answer's speech, not an announcement (e.g. a timer from an earlier run) before it.
            answered = next((i for i, e in enumerate(events) if e["event"] == "answer"), len(events))
            speak = next((e["wall_ms"] for e in events[answered:] if e["event"] == "speak_start"), None)
            if ready is not None and speak is not None:
                into.append(speak - ready - row["speech_end_ms"])
                print(f"  latency {row['id']}{' (baseline)' if binary_env is baseline_env else ''}: {into[-1]} ms",
                      file=sys.stderr)

    # Idle listening, real time, start-up cost subtracted: a quiet room (faint pink noise) and
    # continuous speech without the wake word (ordinary conversation in the room).
    negative = located(json.loads(open(os.path.join(opts.negatives, "negatives.jsonl")).readline())["file"], opts.negatives)
    room_wav = os.path.join(work, "room.wav")
    talk_wav = os.path.join(work, "talk.wav")
    short_wav = os.path.join(work, "short.wav")
    subprocess.run(["sox", "-R", "-n", "-r", "16000", "-c", "1", "-b", "16", room_wav, "synth", str(opts.idle_seconds),
                    "pinknoise", "vol", "0.003"], check=True)
    subprocess.run(["sox", negative, talk_wav, "trim", "0", str(opts.idle_seconds)], check=True)
    subprocess.run(["sox", room_wav, short_wav, "trim", "0", "1"], check=True)
    _, startup_cpu, _ = run_susi(opts.susi, config, ["--input", short_wav, "--output", answer_wav, "--realtime"], env)
    idle = {}
    for name, path in [("quiet room", room_wav), ("conversation, no wake word", talk_wav)]:
        events, cpu, rss = run_susi(opts.susi, config, ["--input", path, "--output", answer_wav, "--realtime"], env)
        peak_rss = max(peak_rss, rss)
        seconds = duration(path) - duration(short_wav)
        idle[name] = dict(cpu_per_audio_second=max(0.0, cpu - startup_cpu) / seconds, seconds=seconds,
                          wakes=sum(e["event"] == "wake" for e in events))

    result = dict(
        date=time.strftime("%Y-%m-%d"), files=len(rows),
        conditions={c: dict(wake_rate=s["woke"] / s["files"], wer=s["errors"] / max(1, s["words"]),
                            answered=s["answered"] / s["files"], files=s["files"]) for c, s in by_condition.items()},
        latency_ms=dict(median=percentile(latencies, 0.5), p95=percentile(latencies, 0.95), runs=len(latencies)),
        idle=idle, peak_rss_mib=peak_rss)
    if opts.baseline:
        result["baseline"] = dict(
            binary=opts.baseline, peak_rss_mib=baseline["rss"],
            latency_ms=dict(median=percentile(baseline["latencies"], 0.5), p95=percentile(baseline["latencies"], 0.95),
                            runs=len(baseline["latencies"])))
    os.makedirs(os.path.dirname(os.path.abspath(opts.json)), exist_ok=True)
    with open(opts.json, "w") as f:
        json.dump(result, f, indent=2)

    print(f"pipeline benchmark, {result['date']}, {len(rows)} corpus files (every {opts.every}th), built-in brain")
    print()
    print("| condition | files | wake rate | command WER | answered |")
    print("|---|---|---|---|---|")
    for condition, s in result["conditions"].items():
        print(f"| {condition} | {s['files']} | {s['wake_rate']:.0%} | {s['wer']:.0%} | {s['answered']:.0%} |")
    print()
    lat = result["latency_ms"]
    print(f"end of speech to first answer audio (--realtime, {lat['runs']} runs): median {lat['median']:.0f} ms, "
          f"p95 {lat['p95']:.0f} ms")
    if opts.baseline:
        base = result["baseline"]
        print(f"baseline {opts.baseline}, the same files right after each: median {base['latency_ms']['median']:.0f} ms, "
              f"p95 {base['latency_ms']['p95']:.0f} ms ({base['latency_ms']['runs']} runs), "
              f"peak resident memory {base['peak_rss_mib']:.0f} MiB")
    for name, figures in idle.items():
        print(f"idle listening, {name}: {figures['cpu_per_audio_second']:.4f} CPU s per audio s over "
              f"{figures['seconds']:.0f} s ({figures['wakes']} wakes)")
    print(f"peak resident memory: {peak_rss:.0f} MiB")
    subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    main()
