#!/usr/bin/env python3
"""Trains the neural wake word's head on the shards data.py wrote and writes it as JSON
(WakeWordHead.swift reads it).

usage: train.py DATADIR PHRASE OUT.json [--seeds N] [--epochs N] [--hidden N] [--recall R]

Windows: 16 consecutive embeddings (flattened, 1,536 values). Row k of a shard ends at
sample (k + 10) * 1280 (frontend.py). A positive window ends 0-400 ms after the phrase's
end; every window of the negative shards is a negative.

Network: 1536 -> H -> H -> 1 (ReLU, ReLU, sigmoid), inputs standardised (folded into the
first layer when saved), Adam, batches of 3/4 negatives and 1/4 positives; from the third
epoch half of the negatives are the hardest of the last pass. N seeds; the head averages
their outputs.

Threshold, by a rule meant to carry over to voices not trained on: for each validation
synthesizer (flite kal; eSpeak NG variants training never used) take the highest threshold
at which it still finds R (97%) of its clean phrases within 600 ms of their end; the head
uses the lowest of these, i.e. the hardest synthesizer decides. Clean, because the noisy
validation phrases (0-20 dB of any noise kind, babble and TV included) cannot all be found
at any threshold (about 90% at 0.01), so a target on them would drive the threshold to the
floor; how the noisy ones fare is reported. This is
done for a detection on one window at or above the threshold and for two in a row; the head
takes the one with fewer false wakes per hour on the validation negatives at its threshold
(one window when equal).
"""
import argparse, base64, glob, json, os, time

import numpy as np

CHUNK = 1280
RATE = 16000
WINDOW = 16
FEATURES = 96
POSITIVE_AFTER = 6400      # a window ending up to 400 ms after the phrase's end is positive
DETECT_AFTER = 9600        # a phrase counts as found when decided within 600 ms of its end


def row_end(k):
    return (k + 10) * CHUNK


def load(directory, split):
    """Embeddings of all shards of `split`, concatenated, and the window-end rows of
    positives (with their synthesizer group and the phrase's end row offset) and negatives."""
    blocks, positive_rows, positive_groups, positive_ids = [], [], [], []
    offset = 0
    count = 0
    for path in sorted(glob.glob(os.path.join(directory, f"{split}-pos-*.npz"))):
        data = np.load(path)
        emb = data["embeddings"]
        for end, group in zip(data["ends"], data["groups"]):
            rows = [k for k in range(WINDOW - 1, len(emb)) if 0 <= row_end(k) - end <= DETECT_AFTER]
            for k in rows:
                positive_rows.append(offset + k)
                positive_groups.append(str(group))
                positive_ids.append(count if row_end(k) - end <= POSITIVE_AFTER else -1 - count)
            count += 1
        blocks.append(emb)
        offset += len(emb)

    def windows_of(kind):
        """Every window of the `kind` shards (appended to the blocks) as rows, and their seconds."""
        nonlocal offset
        rows, seconds = [], 0.0
        for path in sorted(glob.glob(os.path.join(directory, f"{split}-{kind}-*.npz"))):
            emb = np.load(path)["embeddings"]
            rows.extend(range(offset + WINDOW - 1, offset + len(emb)))
            seconds += len(emb) * CHUNK / RATE
            blocks.append(emb)
            offset += len(emb)
        return rows, seconds

    negative_rows, negative_seconds = windows_of("neg")
    emb = np.concatenate(blocks) if blocks else np.zeros((0, FEATURES), np.float16)
    return dict(emb=emb, pos=np.array(positive_rows), groups=np.array(positive_groups),
                ids=np.array(positive_ids), neg=np.array(negative_rows), negative_seconds=negative_seconds, phrases=count)


def windows(emb, rows):
    index = rows[:, None] + np.arange(-WINDOW + 1, 1)[None, :]
    return emb[index].reshape(len(rows), -1).astype(np.float32)


class Net:
    def __init__(self, inputs, hidden, rng):
        self.params = []
        for fan_in, fan_out in [(inputs, hidden), (hidden, hidden), (hidden, 1)]:
            w = rng.standard_normal((fan_in, fan_out)).astype(np.float32) * np.sqrt(2.0 / fan_in)
            self.params += [w, np.zeros(fan_out, np.float32)]
        self.m = [np.zeros_like(p) for p in self.params]
        self.v = [np.zeros_like(p) for p in self.params]
        self.t = 0

    def forward(self, x):
        w1, b1, w2, b2, w3, b3 = self.params
        h1 = np.maximum(x @ w1 + b1, 0)
        h2 = np.maximum(h1 @ w2 + b2, 0)
        z = (h2 @ w3 + b3)[:, 0]
        return z, (x, h1, h2)

    def predict(self, x, batch=8192):
        out = [self.forward(x[i:i + batch])[0] for i in range(0, len(x), batch)]
        return 1 / (1 + np.exp(-np.concatenate(out))) if out else np.zeros(0)

    def step(self, x, y, weight, lr):
        w1, b1, w2, b2, w3, b3 = self.params
        z, (x, h1, h2) = self.forward(x)
        p = 1 / (1 + np.exp(-z))
        dz = ((p - y) * weight / weight.sum())[:, None].astype(np.float32)
        grads = [None] * 6
        grads[4] = h2.T @ dz
        grads[5] = dz.sum(0)
        dh2 = (dz @ w3.T) * (h2 > 0)
        grads[2] = h1.T @ dh2
        grads[3] = dh2.sum(0)
        dh1 = (dh2 @ w2.T) * (h1 > 0)
        grads[0] = x.T @ dh1 + 1e-4 * w1
        grads[1] = dh1.sum(0)
        self.t += 1
        for i, g in enumerate(grads):
            self.m[i] = 0.9 * self.m[i] + 0.1 * g
            self.v[i] = 0.999 * self.v[i] + 0.001 * g * g
            mhat = self.m[i] / (1 - 0.9 ** self.t)
            vhat = self.v[i] / (1 - 0.999 ** self.t)
            self.params[i] -= lr * mhat / (np.sqrt(vhat) + 1e-8)


def train_one(train, mean, std, seed, epochs, hidden, log):
    """A net trained `epochs` passes; from the third, half of each batch's negatives are the
    hardest of the last pass."""
    rng = np.random.default_rng(seed)
    net = Net(WINDOW * FEATURES, hidden, rng)
    pos = train["pos"][train["ids"] >= 0]
    neg = train["neg"]
    hard = neg
    batch_neg, batch_pos = 384, 128
    steps = max(1, len(neg) // batch_neg)
    for epoch in range(epochs):
        lr = 1e-3 if epoch < epochs - 2 else 2e-4
        for _ in range(steps):
            if epoch >= 2:
                nrows = np.concatenate([rng.choice(neg, batch_neg // 2), rng.choice(hard, batch_neg // 2)])
            else:
                nrows = rng.choice(neg, batch_neg)
            prows = rng.choice(pos, batch_pos)
            x = (windows(train["emb"], np.concatenate([prows, nrows])) - mean) / std
            y = np.concatenate([np.ones(batch_pos), np.zeros(batch_neg)]).astype(np.float32)
            weight = np.concatenate([np.full(batch_pos, 1.0), np.full(batch_neg, 1.0)]).astype(np.float32)
            net.step(x, y, weight, lr)
        hard = hardest(net, train, neg, mean, std, rng, log, f"seed {seed} epoch {epoch + 1}/{epochs}")
    return net


def hardest(net, train, neg, mean, std, rng, log=None, label=""):
    """The hardest twentieth of a sample of the negatives (at least 1,000), for the next pass."""
    sample = rng.choice(neg, min(len(neg), 120_000), replace=False)
    scores = net.predict((windows(train["emb"], sample) - mean) / std)
    if log:
        log(f"{label}: negatives above 0.5 in the sample {np.mean(scores > 0.5):.5f}")
    return sample[np.argsort(scores)[-max(1000, len(sample) // 20):]]


def head_members(path):
    """The members of the head at `path` as lists of (weights inputs x outputs, bias, activation)."""
    head = json.load(open(path))
    assert head["window"] == WINDOW and head["features"] == FEATURES and head["encoding"] == "float16-base64"

    def floats(text):
        return np.frombuffer(base64.b64decode(text), "<f2").astype(np.float32)

    return head, [[(floats(layer["weights"]).reshape(layer["outputs"], layer["inputs"]).T, floats(layer["bias"]),
                    layer["activation"]) for layer in member] for member in head["members"]]


def batched_scores(data, rows, score, batch=20000):
    """`score` (windows to one value each) of the windows ending at `rows`, a batch at a time."""
    out = [score(windows(data["emb"], rows[i:i + batch])) for i in range(0, len(rows), batch)]
    return np.concatenate(out) if out else np.zeros(0)


def ensemble_scores(nets, data, rows, mean, std):
    return batched_scores(data, rows, lambda x: np.mean([n.predict((x - mean) / std) for n in nets], axis=0))


def false_wakes(scores, threshold):
    """Crossings of `threshold` in a stream of window scores, each followed by a window's
    worth of steps in which the detector starts again (as NeuralWakeWordDetector does)."""
    count, k = 0, 0
    above = np.nonzero(scores >= threshold)[0]
    last = -10 ** 9
    for k in above:
        if k - last >= WINDOW:
            count += 1
            last = k
    return count


def found(data, scores, threshold):
    """Per phrase: whether it was found, and the delay of the first decision in ms."""
    result = {}
    for row, pid, score in zip(data["pos"], data["ids"], scores):
        phrase = pid if pid >= 0 else -1 - pid
        if score >= threshold and phrase not in result:
            result[phrase] = row
    return result


def two_in_a_row(valid, score, pos, neg):
    """The validation positives' and negatives' scores `pos` and `neg` (of one window each) for a
    detection on two windows in a row: each window's score becomes the lower of it and the one before."""
    return np.minimum(pos, score(valid["pos"] - 1)), np.minimum(neg, np.concatenate([[0], neg[:-1]]))


def phrase_groups(valid):
    """Each validation phrase's group (synthesizer and condition)."""
    return {pid if pid >= 0 else -1 - pid: group for pid, group in zip(valid["ids"], valid["groups"])}


def found_by_group(groups, hit):
    """The share of each group's phrases in `hit` (`found`'s result), as "97.5%"."""
    return {group: f"{np.mean([p in hit for p, g in groups.items() if g == group]) * 100:.1f}%"
            for group in sorted(set(groups.values()))}


def decide(valid, score, recall, log):
    """The threshold, windows in a row, sure threshold and decision delay of a head whose
    validation scores `score(rows)` gives, by the rule in this module's doc; with a report."""
    # Validation scores; a detection may need the score at or above the threshold in
    # `steps` consecutive windows (1 or 2), so each window's score is also taken as the
    # lowest of it and the one before.
    vpos1 = score(valid["pos"])
    vneg1 = score(valid["neg"])
    vpos2, vneg2 = two_in_a_row(valid, score, vpos1, vneg1)
    phrase_group = phrase_groups(valid)
    synthesizers = sorted({g.split("/")[0] for g in phrase_group.values()})
    candidates = np.unique(np.concatenate([np.linspace(0.01, 0.99, 99), 1 - np.logspace(-4, -2, 20)]))
    hours = valid["negative_seconds"] / 3600
    choices = {}
    for steps, vpos, vneg in [(1, vpos1, vneg1), (2, vpos2, vneg2)]:
        per_synth = {}
        for synth in synthesizers:
            ids = [p for p, g in phrase_group.items() if g == synth + "/clean"]
            best = candidates[0]
            for t in candidates:
                hit = found(valid, vpos, t)
                if np.mean([p in hit for p in ids]) >= recall:
                    best = t
            per_synth[synth] = float(best)
        threshold = float(min(per_synth.values()))
        choices[steps] = (false_wakes(vneg, threshold) / max(hours, 1e-9), threshold, per_synth, vpos, vneg)
        log(f"{steps} step(s): threshold {threshold:.4f} ({per_synth}), "
            f"{choices[steps][0]:.2f} false wakes per hour on the validation negatives")
    # The rule with fewer validation false wakes at its threshold (one step when equal).
    steps = min(choices, key=lambda k: (round(choices[k][0], 2), k))
    _, threshold, per_synth, vpos, vneg = choices[steps]
    hit = found(valid, vpos, threshold)
    # The decision delay: how long after the phrase's end the first window reaches the threshold.
    ends = {}
    for row, pid in zip(valid["pos"], valid["ids"]):
        phrase = pid if pid >= 0 else -1 - pid
        ends.setdefault(phrase, row)
    delays = sorted((hit[p] - ends[p]) * CHUNK * 1000 // RATE for p in hit)
    delay_ms = int(np.median(delays)) if delays else 0
    report = dict(threshold=threshold, steps=steps, thresholds_by_synthesizer=per_synth)
    for group, share in found_by_group(phrase_group, hit).items():
        report[f"found/{group}"] = f"{share} of {sum(g == group for g in phrase_group.values())}"
    for t in sorted({threshold, 0.5, 0.9}):
        report[f"false wakes per hour at {t:.4f}"] = round(false_wakes(vneg, t) / max(hours, 1e-9), 2)
    report["decision delay ms (median, first crossing after the phrase's first row)"] = delay_ms
    # Above this score the verifier is skipped: the lowest threshold at which the validation
    # negatives give no false wake at all.
    sure = next((float(t) for t in candidates if t >= threshold and false_wakes(vneg, t) == 0), 1.0)
    sure_hit = found(valid, vpos, sure)
    report["sure threshold (no validation false wake)"] = sure
    for group, share in found_by_group(phrase_group, sure_hit).items():
        report[f"found at the sure threshold/{group}"] = share
    return report, threshold, steps, sure, delay_ms


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data")
    parser.add_argument("phrase")
    parser.add_argument("out")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--recall", type=float, default=0.97)
    args = parser.parse_args()
    started = time.time()

    def log(message):
        print(f"[{time.time() - started:6.0f} s] {message}", flush=True)

    train = load(args.data, "train")
    valid = load(args.data, "validation")
    log(f"training: {train['phrases']} phrases ({(train['ids'] >= 0).sum()} positive windows), "
        f"{train['negative_seconds'] / 3600:.2f} h of negatives ({len(train['neg'])} windows); "
        f"validation: {valid['phrases']} phrases, {valid['negative_seconds'] / 3600:.2f} h of negatives")
    sample = windows(train["emb"], np.random.default_rng(0).choice(train["neg"], 20000))
    mean = sample.mean(0)
    std = sample.std(0) + 1e-3
    nets = [train_one(train, mean, std, seed, args.epochs, args.hidden, log) for seed in range(args.seeds)]

    report, threshold, steps, sure, delay_ms = decide(valid, lambda rows: ensemble_scores(nets, valid, rows, mean, std),
                                                     args.recall, log)
    log(json.dumps(report, indent=1))

    # Standardisation folded into the first layer: (x - mean) / std @ W1 + b1.
    def f16(a):
        return base64.b64encode(np.asarray(a, "<f2").tobytes()).decode()

    # How much storing half floats changes the scores (the Swift head reads half floats).
    rounded = []
    for net in nets:
        copy = Net(WINDOW * FEATURES, args.hidden, np.random.default_rng(0))
        copy.params = [p.astype(np.float16).astype(np.float32) for p in net.params]
        rounded.append(copy)
    check = valid["pos"][:2000]
    report["largest score change from half floats"] = float(np.max(np.abs(
        ensemble_scores(rounded, valid, check, mean, std) - ensemble_scores(nets, valid, check, mean, std)), initial=0))

    members = []
    for net in nets:
        w1, b1, w2, b2, w3, b3 = net.params
        w1f = w1 / std[:, None]
        b1f = b1 - mean @ w1f
        layers = []
        for w, b, act in [(w1f, b1f, "relu"), (w2, b2, "relu"), (w3, b3, "sigmoid")]:
            layers.append(dict(inputs=w.shape[0], outputs=w.shape[1], weights=f16(w.T), bias=f16(b), activation=act))
        members.append(layers)
    head = dict(phrase=args.phrase.lower(), window=WINDOW, features=FEATURES, threshold=round(threshold, 6),
                steps=steps, sure_threshold=round(sure, 6), decision_delay_ms=delay_ms, encoding="float16-base64",
                training=dict(report=report, phrases=train["phrases"], negative_hours=round(train["negative_seconds"] / 3600, 2),
                              validation_phrases=valid["phrases"], validation_negative_hours=round(valid["negative_seconds"] / 3600, 2),
                              seeds=args.seeds, epochs=args.epochs, hidden=args.hidden, recall_rule=args.recall),
                members=members)
    with open(args.out, "w") as f:
        json.dump(head, f, indent=1)
    log(f"wrote {args.out} ({os.path.getsize(args.out) // 1024} KiB)")


if __name__ == "__main__":
    main()
