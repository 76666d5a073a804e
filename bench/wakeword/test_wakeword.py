#!/usr/bin/env python3
"""Tests of the wake word training's data and scoring functions (train.py, combine.py, data.py).

    python3 bench/wakeword/test_wakeword.py [-v]

The expected values are worked out by hand from small made-up scores and embeddings. Needs
numpy (bench/wakeword/requirements.txt); without it every test skips, saying so. No shard,
model or synthesizer is touched.
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
try:
    import numpy as np

    import combine
    import data
    import train
except ImportError as error:  # numpy missing: skip, saying why
    MISSING = str(error)
else:
    MISSING = None


def validation(scores, positives, negatives, seconds=3600.0):
    """A validation set like train.load's, over one array of window scores indexed by row:
    `positives` is a list of phrases, each a list of rows, all in the group "kal/clean"."""
    rows, ids = [], []
    for phrase, phrase_rows in enumerate(positives):
        rows += phrase_rows
        ids += [phrase] * len(phrase_rows)
    valid = dict(pos=np.array(rows), ids=np.array(ids), groups=np.array(["kal/clean"] * len(rows)),
                 neg=np.array(negatives), negative_seconds=seconds)
    table = np.array(scores, dtype=np.float64)
    return valid, lambda r: table[np.asarray(r)]


@unittest.skipIf(MISSING, f"numpy or the training modules cannot be imported: {MISSING}")
class ScoringTests(unittest.TestCase):
    def test_row_end_is_the_sample_after_the_rows_window(self):
        # Row k's window ends after k + 10 chunks of 1280 samples.
        self.assertEqual(train.row_end(0), 12800)
        self.assertEqual(train.row_end(5), 19200)

    def test_windows_are_the_sixteen_embeddings_ending_at_each_row(self):
        emb = np.arange(20 * 96, dtype=np.float32).reshape(20, 96)
        x = train.windows(emb, np.array([15, 19]))
        self.assertEqual(x.shape, (2, 1536))
        self.assertEqual(x.dtype, np.float32)
        self.assertEqual((x[0, 0], x[0, -1]), (0, 15 * 96 + 95))
        self.assertEqual((x[1, 0], x[1, -1]), (4 * 96, 19 * 96 + 95))

    def test_batched_scores_covers_every_row_in_order(self):
        emb = np.arange(20 * 96, dtype=np.float32).reshape(20, 96)
        first_value = train.batched_scores(dict(emb=emb), np.array([15, 16, 17, 18, 19]), lambda x: x[:, 0], batch=2)
        self.assertEqual(first_value.tolist(), [0, 96, 192, 288, 384])
        self.assertEqual(len(train.batched_scores(dict(emb=emb), np.array([], dtype=np.int64), lambda x: x[:, 0])), 0)

    def test_false_wakes_counts_crossings_with_a_rest_of_one_window(self):
        scores = np.zeros(40)
        scores[[1, 2, 17]] = [0.5, 0.9, 0.6]
        # 1 wakes (a score at the threshold counts); 2 falls in its rest; 17, 16 steps after 1,
        # wakes again.
        self.assertEqual(train.false_wakes(scores, 0.5), 2)
        self.assertEqual(train.false_wakes(scores, 0.65), 1)
        scores[20] = 0.7
        # 20 falls in 17's rest.
        self.assertEqual(train.false_wakes(scores, 0.5), 2)
        self.assertEqual(train.false_wakes(scores, 0.95), 0)
        self.assertEqual(train.false_wakes(np.zeros(0), 0.5), 0)

    def test_found_gives_each_phrases_first_row_at_the_threshold(self):
        # Phrase 0 on rows 10-12 (12 after the positive span: id -1), phrase 1 on 20-21.
        valid = dict(pos=np.array([10, 11, 12, 20, 21]), ids=np.array([0, 0, -1, 1, -2]))
        scores = np.array([0.1, 0.7, 0.9, 0.2, 0.8])
        self.assertEqual(train.found(valid, scores, 0.6), {0: 11, 1: 21})
        self.assertEqual(train.found(valid, scores, 0.7), {0: 11, 1: 21})
        self.assertEqual(train.found(valid, scores, 0.85), {0: 12})
        self.assertEqual(train.found(valid, scores, 0.95), {})

    def test_two_in_a_row_takes_the_lower_of_each_window_and_the_one_before(self):
        valid, score = validation([0.0, 0.4, 0.8, 0.3], [[2, 3]], [])
        pos, neg = train.two_in_a_row(valid, score, score(valid["pos"]), np.array([0.2, 0.9, 0.5]))
        self.assertEqual(pos.tolist(), [0.4, 0.3])
        self.assertEqual(neg.tolist(), [0.0, 0.2, 0.5])

    def test_found_by_group_gives_each_groups_share(self):
        groups = {0: "kal/clean", 1: "kal/clean", 2: "espeak/noisy"}
        self.assertEqual(train.found_by_group(groups, {0: 5}), {"espeak/noisy": "0.0%", "kal/clean": "50.0%"})
        valid = dict(ids=np.array([0, 0, -1, 1]), groups=np.array(["a/clean", "a/clean", "a/clean", "b/clean"]))
        self.assertEqual(train.phrase_groups(valid), {0: "a/clean", 1: "b/clean"})

    def decision_set(self):
        scores = np.zeros(200)
        # Phrase 0 on rows 5-7, phrase 1 on 25-27; rows 4 and 24 (before them) score 0.
        scores[[5, 6, 7]] = [0.2, 0.8, 0.9]
        scores[[25, 26, 27]] = [0.3, 0.505, 0.705]
        # An hour of negatives on rows 100-199: two windows in a row at 0.755, one alone at 0.95.
        scores[[110, 111, 150]] = [0.755, 0.755, 0.95]
        return validation(scores, [[5, 6, 7], [25, 26, 27]], list(range(100, 200)))

    def test_decide_takes_the_rule_with_fewer_false_wakes(self):
        valid, score = self.decision_set()
        messages = []
        report, threshold, steps, sure, delay_ms = train.decide(valid, score, 1.0, messages.append)
        # One window: both phrases found up to 0.70 (phrase 1 peaks at 0.705); rows 110 and 150
        # wake: 2 per hour. Two in a row: phrase 1 peaks at min(0.705, 0.505), so 0.50; only row
        # 111 wakes: 1 per hour. Two in a row wins.
        self.assertEqual(len(messages), 2)
        self.assertIn("threshold 0.7000", messages[0])
        self.assertIn("2.00 false wakes per hour", messages[0])
        self.assertIn("1.00 false wakes per hour", messages[1])
        self.assertEqual(steps, 2)
        self.assertAlmostEqual(threshold, 0.50)
        # Found at rows 7 (0.8) and 27 (0.505), two rows (160 ms) after each phrase's first row.
        self.assertEqual(delay_ms, 160)
        # The lowest candidate over 0.755 (the highest two-in-a-row negative).
        self.assertAlmostEqual(sure, 0.76)
        self.assertEqual(report["found/kal/clean"], "100.0% of 2")
        self.assertEqual(report["found at the sure threshold/kal/clean"], "50.0%")
        self.assertEqual(report["false wakes per hour at 0.5000"], 1.0)
        self.assertEqual(report["false wakes per hour at 0.9000"], 0.0)

    def test_decide_misses_its_recall_and_takes_the_floor(self):
        valid, score = self.decision_set()
        # Recall above 1: no threshold finds "enough", so the first candidate stays.
        _, threshold, *_ = train.decide(valid, score, 1.01, lambda _: None)
        self.assertAlmostEqual(threshold, 0.01)

    def test_at_reports_an_operating_point(self):
        valid, score = self.decision_set()
        report = combine.at(valid, score, 0.5, 2, 0.76)
        self.assertEqual(report["false wakes per hour at the threshold 0.5000"], 1.0)
        self.assertEqual(report["false wakes per hour at the sure 0.7600"], 0.0)
        self.assertEqual(report["found at the threshold/kal/clean"], "100.0%")
        self.assertEqual(report["found at the sure/kal/clean"], "50.0%")
        one_window = combine.at(valid, score, 0.5, 1, 0.76)
        # One window: rows 110 and 150 reach 0.5, and 150 reaches 0.76 too.
        self.assertEqual(one_window["false wakes per hour at the threshold 0.5000"], 2.0)
        self.assertEqual(one_window["false wakes per hour at the sure 0.7600"], 1.0)

    def test_member_scores_average_the_members_networks(self):
        x = np.array([[1.0, -2.0], [0.0, 3.0]], dtype=np.float32)
        # Member one: relu(x @ [[1], [1]] + 0): -1 -> 0 and 3. Member two: sigmoid(x @ [[0], [0]]) = 0.5.
        one = [(np.array([[1.0], [1.0]]), np.array([0.0]), "relu")]
        two = [(np.array([[0.0], [0.0]]), np.array([0.0]), "sigmoid")]
        self.assertEqual(combine.member_scores([one, two], x).tolist(), [0.25, 1.75])


@unittest.skipIf(MISSING, f"numpy or the training modules cannot be imported: {MISSING}")
class DataTests(unittest.TestCase):
    def test_trim_keeps_from_the_first_to_the_last_loud_sample(self):
        self.assertEqual(data.trim(np.array([0, 100, 300, -250, 50, 400, 10])).tolist(), [300, -250, 50, 400])
        self.assertEqual(len(data.trim(np.array([0, 100, -199]))), 0)

    def test_rms_counts_only_samples_over_a_twentieth_of_the_peak(self):
        # The peak is 4, so 0.01 is left out: sqrt((9 + 16) / 2).
        self.assertAlmostEqual(data.rms(np.array([0.0, 0.01, 3.0, -4.0])), 12.5 ** 0.5)
        self.assertEqual(data.rms(np.zeros(4)), 1.0)

    def test_silence_is_zeros_at_the_sample_rate(self):
        quiet = data.silence(0.5)
        self.assertEqual((len(quiet), quiet.dtype, float(np.abs(quiet).max())), (8000, np.float32, 0.0))

    def test_coloured_noise_has_its_slope(self):
        import random
        n = 1 << 14
        brown = data.coloured(n, "brown", random.Random(3))
        white = data.coloured(n, "white", random.Random(3))
        self.assertEqual(len(brown), n)
        # Brown noise's power falls with the square of the frequency: far more of it in the
        # lowest 1/64 of the band than in the highest half; white noise has it evenly.
        def low_share(a):
            power = np.abs(np.fft.rfft(a)) ** 2
            return power[: len(power) // 64].sum() / power[len(power) // 2:].sum()
        self.assertGreater(low_share(brown), 10)
        self.assertLess(low_share(white), 0.1)
        self.assertEqual(data.coloured(64, "pink", random.Random(5)).tolist(),
                         data.coloured(64, "pink", random.Random(5)).tolist())

    def test_a_room_response_starts_with_the_direct_sound_and_decays(self):
        import random
        for seed in range(5):
            h = data.room_response(random.Random(seed))
            self.assertEqual(h[0], 1.0)
            # The room's sound after the direct one holds 1/100 to 100 times its energy, and the
            # last tenth of the response far less energy than its first tenth.
            self.assertTrue(0.01 < float(np.sum(h[1:] ** 2)) < 100)
            tenth = len(h) // 10
            self.assertLess(float(np.sum(h[-tenth:] ** 2)), 0.1 * float(np.sum(h[:tenth] ** 2)))
            # Between 0.1 s and 1.2 s long (the RT60 the walls give, bounded).
            self.assertTrue(1600 <= len(h) <= 19201)
        self.assertEqual(data.room_response(random.Random(9)).tolist(), data.room_response(random.Random(9)).tolist())

    def test_speech_in_a_room_keeps_its_length_and_level_and_is_smeared(self):
        import random
        click = np.zeros(8000)
        click[100] = 1000.0
        wet = data.in_room(click, random.Random(4))
        self.assertEqual(len(wet), len(click))
        self.assertAlmostEqual(data.rms(wet), data.rms(click), places=6)
        self.assertLess(float(np.abs(wet[:100]).max()), 1e-6)  # nothing before the sound: causal
        self.assertGreater(int(np.sum(np.abs(wet[101:]) > 1.0)), 50)  # the room's echoes after it

    def test_tap_and_fan_noise_sit_in_their_bands(self):
        import random
        n = 1 << 15

        def share(a, low, high):
            power = np.abs(np.fft.rfft(a)) ** 2
            freqs = np.fft.rfftfreq(n, 1 / 16000)
            return power[(freqs >= low) & (freqs <= high)].sum() / power.sum()
        for seed in range(3):
            self.assertGreater(share(data.running_water(n, random.Random(seed)), 300, 8000), 0.99)
            self.assertLess(share(data.running_water(n, random.Random(seed)), 0, 250), 0.01)
            self.assertGreater(share(data.fan_noise(n, random.Random(seed)), 0, 3500), 0.99)
        self.assertEqual(data.fan_noise(64, random.Random(2)).tolist(), data.fan_noise(64, random.Random(2)).tolist())


if __name__ == "__main__":
    unittest.main()
