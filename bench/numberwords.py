"""Numbers as the corpora write them: Whisper writes "5" and "30" where the corpora say "five"
and "thirty", which would count as word errors. Shared by the benchmarks' scoring."""

NUMBERS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
           "seventeen eighteen nineteen").split()
TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def spelled(word):
    """The words of `word`: a number under 100 written out ("30" -> ["thirty"]), else the word."""
    if not word.isdigit() or int(word) >= 100:
        return [word]
    n = int(word)
    return [NUMBERS[n]] if n < 20 else [TENS[n // 10]] + ([] if n % 10 == 0 else [NUMBERS[n % 10]])
