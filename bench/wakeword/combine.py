#!/usr/bin/env python3
"""Joins trained heads into one that needs all of them: its score is the lowest of the
heads' scores (each head the mean of its seeds), so a window must look like the phrase to
every head. Heads trained on different data make different mistakes on other speech.

usage: combine.py DATADIR OUT.json HEAD.json HEAD.json [...] [--recall R] [--match-first] [--threshold T] [--sure S]

The joined head's threshold, windows in a row, sure threshold and decision delay come from
train.py's rule on DATADIR's validation shards (never on the bench's files), or with
--match-first: the highest thresholds at which every validation group is found at least as
often as by the first head at its own, with its windows in a row and delay (the rule for
joining a new head to the one shipped); --threshold T and --sure S then set the thresholds
instead (the three-head "susi" keeps the two-head join's sure threshold, 0.62: with a third
head the rule gives 0.41-0.52, and at 0.41 one such join false-woke on read speech 5 times
where it had 2; and the threshold the rule gave on the validation shards of the machine it was
chosen on, 0.04: on the shards a machine with only `make deps`' packages makes, the rule gives
0.01; models/hotword/README.md).
Each head alone is judged by train.py's rule on the same
shards, and all of it is logged. The heads' members are
written in order with `groups` (how many members each head has), which WakeWordHead.swift reads.
"""
import argparse, json, time

import numpy as np

from train import (WINDOW, FEATURES, batched_scores, decide, false_wakes, found, found_by_group, head_members, load,
                   phrase_groups, two_in_a_row)


def member_scores(members, x):
    """The mean of `members`' outputs for the windows `x` (rows of WINDOW * FEATURES values)."""
    total = np.zeros(len(x), np.float32)
    for layers in members:
        values = x
        for weights, bias, activation in layers:
            values = values @ weights + bias
            values = np.maximum(values, 0) if activation == "relu" else 1 / (1 + np.exp(-np.clip(values, -60, 60)))
        total += values[:, 0]
    return total / len(members)


def at(valid, score, threshold, steps, sure):
    """How a head whose validation scores `score(rows)` gives fares at an operating point:
    the phrases found per synthesizer and condition, and false wakes per hour, at `threshold`
    (`steps` windows in a row) and at `sure`."""
    pos, neg = score(valid["pos"]), score(valid["neg"])
    if steps == 2:
        pos, neg = two_in_a_row(valid, score, pos, neg)
    groups = phrase_groups(valid)
    hours = valid["negative_seconds"] / 3600
    report = {}
    for name, t in [("threshold", threshold), ("sure", sure)]:
        hit = found(valid, pos, t)
        report[f"false wakes per hour at the {name} {t:.4f}"] = round(false_wakes(neg, t) / hours, 2)
        for group, share in found_by_group(groups, hit).items():
            report[f"found at the {name}/{group}"] = share
    return report


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data")
    parser.add_argument("out")
    parser.add_argument("heads", nargs="+")
    parser.add_argument("--recall", type=float, default=0.97)
    parser.add_argument("--match-first", action="store_true",
                        help="thresholds that find every validation group at least as often as the first head does "
                             "at its own; its windows in a row and delay")
    parser.add_argument("--threshold", type=float, help="the threshold, instead of the rule's")
    parser.add_argument("--sure", type=float, help="the sure threshold, instead of the rule's")
    args = parser.parse_args()
    started = time.time()

    def log(message):
        print(f"[{time.time() - started:6.0f} s] {message}", flush=True)

    valid = load(args.data, "validation")
    heads = [head_members(path) for path in args.heads]
    cache = {}

    def scores(rows, which):
        """Each head's scores for `rows` (kept: the rule asks for the same rows more than once)."""
        key = (rows.tobytes(), which)
        if key not in cache:
            cache[key] = batched_scores(valid, rows, lambda x: member_scores(heads[which][1], x))
        return cache[key]

    for which, path in enumerate(args.heads):
        report, *_ = decide(valid, lambda rows, which=which: scores(rows, which), args.recall, log)
        log(f"{path} alone: {json.dumps(report, indent=1)}")

    def lowest(rows):
        return np.min([scores(rows, k) for k in range(len(heads))], axis=0)

    report, threshold, steps, sure, delay_ms = decide(valid, lowest, args.recall, log)
    log(f"joined, by the rule: {json.dumps(report, indent=1)}")
    first = heads[0][0]
    if args.match_first:
        # The first head (the one shipped) at its own operating point sets the recall to keep:
        # the joined head takes the highest threshold, and the highest sure threshold, at which
        # every validation group (synthesizer and condition) is found at least as often.
        steps, delay_ms = first.get("steps", 1), first["decision_delay_ms"]
        own = at(valid, lambda rows: scores(rows, 0), first["threshold"], steps, first.get("sure_threshold", 1.0))
        log(f"{args.heads[0]} at its own operating point: {json.dumps(own, indent=1)}")

        grid = [round(t, 2) for t in np.arange(0.01, 1.0, 0.01)]
        # Each candidate once: its found shares serve both the threshold and the sure one.
        mine = {t: at(valid, lowest, t, steps, t) for t in grid}

        def keeps(t, name):
            return all(float(mine[t][k.replace(name, "threshold")].rstrip("%")) >= float(v.rstrip("%"))
                       for k, v in own.items() if k.startswith(f"found at the {name}/"))

        threshold = max((t for t in grid if keeps(t, "threshold")), default=grid[0])
        sure = max((t for t in grid if keeps(t, "sure")), default=grid[0])
        report = at(valid, lowest, threshold, steps, sure)
        log(f"joined, matching the first head: {json.dumps(report, indent=1)}")
    if args.threshold is not None or args.sure is not None:
        threshold = threshold if args.threshold is None else args.threshold
        sure = sure if args.sure is None else args.sure
        report = at(valid, lowest, threshold, steps, sure)
        log(f"joined, at the threshold {threshold} and the sure threshold {sure}: {json.dumps(report, indent=1)}")
    joined = dict(phrase=first["phrase"], window=WINDOW, features=FEATURES, threshold=round(threshold, 6), steps=steps,
                  sure_threshold=round(sure, 6), decision_delay_ms=delay_ms, encoding="float16-base64",
                  combine="min", groups=[len(head["members"]) for head, _ in heads],
                  training=dict(report=report, joined=[dict(path=path, training=head.get("training"))
                                                       for path, (head, _) in zip(args.heads, heads)]),
                  members=[member for head, _ in heads for member in head["members"]])
    with open(args.out, "w") as f:
        json.dump(joined, f, indent=1)
    log(f"wrote {args.out}")


if __name__ == "__main__":
    main()
