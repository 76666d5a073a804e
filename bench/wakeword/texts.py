"""Text for synthetic speech: sentences of plain words from prose and from man pages. Used by
data.py (training) and bench/heldout.py (the bench's held-out negatives)."""
import gzip
import re


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


