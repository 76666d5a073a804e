#!/usr/bin/env python3
"""A SUSI server that hangs (issue 51): how long `susi run` keeps a person waiting.

Runs the real binary, brain hybrid, against a loopback SUSI server that accepts every
connection, reads the request and never answers (connections are held until the end). One WAV
holds QUESTIONS interactions ("susi", a pause, a question the built-in skills answer only as the
server's fallback), each in a slot of --slot seconds; it is read with --realtime, as from a
microphone, so the background checks of the server come on their schedule (30 s, then 1 min ...).

Reports, from the events (`--events`):
  * the first question's wait, end of speech to first answer audio: about
    brain.voice_timeout_seconds more than usual;
  * every later question that went the server's way (its `error` event is `brain-unavailable`):
    end of speech to first answer audio (as bench/pipeline.py measures it: the person's wait,
    end-of-command silence and recognition included), median and 95th percentile (target p95
    <= 600 ms), and the brain's part alone (`speech_end` to `answer`);
  * with --baseline-local, the same input answered with brain.mode local: the floor;
  * the requests the server got: the first question's and the background checks' ("hello").

The recogniser is `stt.engine pocketsphinx` unless --set says otherwise, so the figure is about the
brain and not Whisper's pass. A benchmark, not a test: the figures depend on the machine.

usage: bench/outage.py [--susi BIN] [--questions N] [--slot SECONDS] [--set KEY=VALUE ...] [--baseline-local]
                       [--json FILE]
"""
import argparse, json, os, socket, statistics, subprocess, tempfile, threading, time, urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Remote-bound in hybrid mode: the built-in skills answer them only as the fallback.
QUESTIONS = ["tell me a joke", "who is the president of france", "what is the capital of peru", "who wrote hamlet",
             "tell me about the moon"]


class HangingServer:
    """Accepts on 127.0.0.1, reads each request head, never answers; stops with stop() (bounded)."""

    def __init__(self):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.1)
        self.port = self.listener.getsockname()[1]
        self.requests = []  # (seconds since start, q)
        self.held = []
        self.started = time.monotonic()
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        while not self.stopped.is_set():
            try:
                client, _ = self.listener.accept()
            except socket.timeout:
                continue
            client.settimeout(1)
            head = b""
            try:
                while b"\r\n\r\n" not in head and len(head) < 16384:
                    chunk = client.recv(4096)
                    if not chunk:
                        break
                    head += chunk
            except socket.timeout:
                pass
            target = head.split(b"\r\n", 1)[0].split(b" ")[1:2]
            query = urllib.parse.parse_qs(urllib.parse.urlsplit(target[0].decode() if target else "").query)
            self.requests.append((time.monotonic() - self.started, query.get("q", [""])[0]))
            self.held.append(client)

    def stop(self):
        self.stopped.set()
        self.thread.join(5)
        for client in self.held:
            client.close()
        self.listener.close()


def percentile(values, fraction):
    values = sorted(values)
    return values[min(len(values) - 1, int(round((len(values) - 1) * fraction)))] if values else float("nan")


def build_wav(path, questions, slot, work):
    """`susi, QUESTION` at the start of each slot of `slot` seconds, eSpeak NG's en-us voice, 16 kHz mono."""
    parts = []
    pause = os.path.join(work, "pause.wav")
    subprocess.run(["sox", "-n", "-r", "22050", "-c", "1", "-b", "16", pause, "trim", "0", "0.3"], check=True)
    for index, question in enumerate(questions):
        name, command = (os.path.join(work, f"{index}-{kind}.wav") for kind in ("name", "command"))
        subprocess.run(["espeak-ng", "-v", "en-us", "-w", name, "susi"], check=True)
        subprocess.run(["espeak-ng", "-v", "en-us", "-w", command, question], check=True)
        # The slot: a second of silence, "susi", a short pause, the question, silence to the slot's end.
        slotted = os.path.join(work, f"{index}-slot.wav")
        subprocess.run(["sox", "-V1", name, pause, command, "-r", "16000", "-c", "1", "-b", "16", slotted,
                        "pad", "1", str(slot), "trim", "0", str(slot)], check=True)
        parts.append(slotted)
    subprocess.run(["sox", "-V1", *parts, path], check=True)


def interactions(events):
    """The events split at each `wake`, one list per interaction."""
    runs, current = [], None
    for event in events:
        if event["event"] == "wake":
            current = []
            runs.append(current)
        if current is not None:
            current.append(event)
    return runs


def run_susi(susi, settings, wav, work, name):
    """`susi run --realtime` on `wav` with `settings`; its events and the seconds it took."""
    config = os.path.join(work, f"{name}.json")
    for key, value in settings:
        subprocess.run([susi, "--quiet", "--config", config, "config", "set", key, value], check=True,
                       stdout=subprocess.DEVNULL)
    events_path = os.path.join(work, f"{name}.jsonl")
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache"))
    started = time.monotonic()
    subprocess.run([susi, "--quiet", "--config", config, "run", "--input", wav, "--realtime",
                    "--output", os.path.join(work, "answers.wav"), "--events", events_path],
                   check=True, stdout=subprocess.DEVNULL, env=env)
    seconds = time.monotonic() - started
    with open(events_path) as f:
        return [json.loads(line) for line in f if line.strip()], seconds


def timings(events):
    """Per interaction that was answered: (query, error codes, felt ms, brain ms).

    felt: the end of the question's speech in the input (`speech_end`'s audio_ms, after `ready`)
    to the first answer audio (`speak_start`), as bench/pipeline.py measures it; with real-time
    input this is what the person waits, end-of-command silence and recognition included.
    brain: `speech_end` (emitted once the command is recognised) to the `answer` event."""
    ready = next((e["wall_ms"] for e in events if e["event"] == "ready"), 0)
    rows = []
    for run in interactions(events):
        end = next((e for e in run if e["event"] == "speech_end"), None)
        answered = next((i for i, e in enumerate(run) if e["event"] == "answer"), None)
        if end is None or answered is None:
            rows.append((None, [], None, None))
            continue
        speak = next((e["wall_ms"] for e in run[answered:] if e["event"] == "speak_start"), None)
        codes = [e.get("code") for e in run if e["event"] == "error"]
        felt = speak - ready - end["audio_ms"] if speak is not None else None
        rows.append((run[answered].get("query", ""), codes, felt, run[answered]["wall_ms"] - end["wall_ms"]))
    return rows


def figures(values):
    return dict(runs=len(values), median=statistics.median(values) if values else None, p95=percentile(values, 0.95),
                max=max(values, default=None))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--susi", default=os.path.join(ROOT, ".build/release/susi"))
    parser.add_argument("--questions", type=int, default=20)
    parser.add_argument("--slot", type=float, default=9, help="seconds per interaction in the input")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="a config value for the runs")
    parser.add_argument("--baseline-local", action="store_true",
                        help="also run the same input with brain.mode local: the floor, no server at all")
    parser.add_argument("--json", default=os.path.join(ROOT, "bench/out/outage.json"), help="where the results go")
    opts = parser.parse_args()

    work = tempfile.mkdtemp(prefix="susi-outage-")
    questions = [QUESTIONS[i % len(QUESTIONS)] for i in range(opts.questions)]
    wav = os.path.join(work, "questions.wav")
    build_wav(wav, questions, opts.slot, work)
    extra = [tuple(item.split("=", 1)) for item in opts.set]
    server = HangingServer()
    try:
        settings = [("brain.mode", "hybrid"), ("brain.server", f"http://127.0.0.1:{server.port}"),
                    ("stt.engine", "pocketsphinx")] + extra
        events, seconds = run_susi(opts.susi, settings, wav, work, "hanging")
    finally:
        server.stop()
    baseline = None
    if opts.baseline_local:
        local_events, _ = run_susi(opts.susi, [("brain.mode", "local"), ("stt.engine", "pocketsphinx")] + extra, wav,
                                   work, "local")
        baseline = figures([felt for _, _, felt, _ in timings(local_events) if felt is not None])

    first, felt_after, brain_after, other = None, [], [], []
    for query, codes, felt, brain in timings(events):
        if query is None:
            other.append("woke, no answer")
        elif "brain-timeout" in codes and first is None:
            first = dict(query=query, felt_ms=felt, brain_ms=brain)
        elif "brain-unavailable" in codes:
            brain_after.append(brain)
            if felt is not None:
                felt_after.append(felt)
        else:
            other.append(f"{query!r}: {', '.join(filter(None, codes)) or 'answered without the server'}")

    result = dict(
        date=time.strftime("%Y-%m-%d"), questions=opts.questions, wakes=len(interactions(events)),
        run_seconds=round(seconds, 1), first=first,
        after_first=dict(felt_ms=figures(felt_after), brain_ms=figures(brain_after)),
        local_baseline_felt_ms=baseline, other=other,
        server_requests=[dict(at_s=round(at, 1), q=q) for at, q in server.requests], settings=dict(settings))
    os.makedirs(os.path.dirname(os.path.abspath(opts.json)), exist_ok=True)
    with open(opts.json, "w") as f:
        json.dump(result, f, indent=2)

    print(f"hanging SUSI server, {result['date']}: {opts.questions} questions in {seconds:.0f} s of real-time input, "
          f"{result['wakes']} woke")
    if first:
        print(f"first question ({first['query']!r}): end of speech to first answer audio {first['felt_ms']} ms "
              f"(brain {first['brain_ms']} ms)")
    else:
        print("no question timed out: did the server get the first question?")
    felt, brain = result["after_first"]["felt_ms"], result["after_first"]["brain_ms"]
    print(f"later questions answered offline at once ({felt['runs']}): end of speech to first answer audio "
          f"median {felt['median']} ms, p95 {felt['p95']} ms, max {felt['max']} ms; "
          f"brain median {brain['median']} ms, p95 {brain['p95']} ms")
    if baseline:
        print(f"the same input, brain.mode local ({baseline['runs']}): median {baseline['median']} ms, "
              f"p95 {baseline['p95']} ms, max {baseline['max']} ms")
    print(f"server requests: {len(server.requests)} "
          f"({', '.join(f'{q!r} at {at:.0f} s' for at, q in server.requests)})")
    for line in other:
        print(f"  other interaction: {line}")
    subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    main()
