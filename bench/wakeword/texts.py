"""Text for synthetic speech: sentences of plain words from prose and from man pages. Used by
data.py (training) and bench/heldout.py (the bench's held-out negatives); isolated words: `words_unlike`."""
import functools
import gzip
import re
import zlib

DICTIONARY = "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict"   # pocketsphinx-en-us


def sentences_from(text, rnd, low=4, high=28):
    """Sentences of plain words from `text`, for eSpeak NG to read."""
    out = []
    for part in re.split(r"(?<=[.!?])\s+|\n\s*\n", text):
        words = re.findall(r"[A-Za-z][A-Za-z']*|[0-9]+", part)
        if low <= len(words) <= high and sum(len(w) for w in words) > 12:
            out.append(" ".join(words))
    rnd.shuffle(out)
    return out


def man_text(path):
    """The words of a troff man page (macros and escapes dropped), for `sentences_from`."""
    try:
        raw = gzip.open(path, "rt", errors="ignore").read(40000) if path.endswith(".gz") else open(path, errors="ignore").read(40000)
    except (OSError, EOFError):
        return ""
    lines = []
    for line in raw.splitlines():
        if line.startswith((".", "'")):
            if line.startswith((".SH", ".SS", ".PP", ".P ", ".LP", ".TP", ".IP", ".sp", ".br")):
                lines.append("")
            continue
        lines.append(re.sub(r"\\f[BIRPC]|\\f\(..|\\\(..|\\[-&|^]|\\.", " ", line))
    return "\n".join(lines)


def edit_distance(a, b):
    """How many sounds must be put in, taken out or changed to make `a` into `b`."""
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        row, last = [i] + [0] * len(b), row
        for j, y in enumerate(b, 1):
            row[j] = min(last[j] + 1, row[j - 1] + 1, last[j - 1] + (x != y))
    return row[-1]


@functools.lru_cache
def words_unlike(phrase, bench=False):
    """The pronouncing dictionary's words (letters only) not said within one sound of a word of
    the phrase ("susie", "sushi" for "susi"), as (all of them, those sharing two or more sounds
    with the phrase). A fifth of the words, chosen by a checksum, is kept for the bench
    (`bench`: those; else the rest, which training says)."""
    entries = []
    for line in open(DICTIONARY, encoding="utf-8"):
        word, *phones = line.split()
        if re.fullmatch(r"[a-z]+(\(\d\))?", word):
            entries.append((word.split("(")[0], [p.rstrip("012") for p in phones]))
    names = set(phrase.lower().split())
    said = [phones for word, phones in entries if word in names]
    sounds = {p for phones in said for p in phones}
    close = {w for w, p in entries if w in names or any(edit_distance(p, s) <= 1 for s in said)}
    kept = [(w, p) for w, p in entries if w not in close and (zlib.crc32(w.encode()) % 5 == 0) == bench]
    near = sorted({w for w, p in kept if len(sounds & set(p)) >= 2})
    every = sorted({w for w, _ in kept})
    return every, near or every
