"""The dev corpus generator (`dev-corpus.py`, outside this repository) loaded as a module, so
that the other corpus builders here reuse its synthesis, noise and WAV helpers.

Its path comes from DEV_CORPUS, or is ../shared/tools/dev-corpus.py from the repository.
"""
import importlib.util, os

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.environ.get("DEV_CORPUS") or os.path.join(HERE, "..", "..", "shared", "tools", "dev-corpus.py")

_spec = importlib.util.spec_from_file_location("dev_corpus", TOOL)
dev = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(dev)


# Five eSpeak NG voices that neither the dev corpus nor the wake word's training use: the held-out
# split (bench/heldout.py, and `--heldout` of the other corpus builders).
HELDOUT_VOICES = {
    "espeak-rp": ["espeak-ng", "-v", "en-gb-x-rp", "-w", "{out}", "{text}"],
    "espeak-nyc-f2": ["espeak-ng", "-v", "en-us-nyc+f2", "-w", "{out}", "{text}"],
    "espeak-gbcwmd-m4": ["espeak-ng", "-v", "en-gb-x-gbcwmd+m4", "-s", "160", "-w", "{out}", "{text}"],
    "espeak-nyc-klatt2": ["espeak-ng", "-v", "en-us-nyc+klatt2", "-s", "190", "-w", "{out}", "{text}"],
    "espeak-rp-m4": ["espeak-ng", "-v", "en-gb-x-rp+m4", "-s", "150", "-w", "{out}", "{text}"],
}


def choose_voices(argv):
    """The voices for a corpus builder's arguments: the held-out split with `--heldout` (which is
    removed from `argv`), else the dev corpus's eSpeak NG voices (no flite or Festival voice)."""
    if "--heldout" in argv:
        argv.remove("--heldout")
        dev.VOICES = dict(HELDOUT_VOICES)
    else:
        dev.VOICES = {name: args for name, args in dev.VOICES.items() if name.startswith("espeak-")}


def mix(speech, noise, gain):
    """`speech` with `noise` times `gain` added, clipped to 16 bits."""
    return dev.array.array("h", (max(-32768, min(32767, int(s + gain * z))) for s, z in zip(speech, noise)))


def mix_under(speech, noise, level, snr):
    """`speech` with `noise` scaled to `snr` dB under `level` (an RMS), clipped to 16 bits."""
    return mix(speech, noise, level / max(1.0, dev.rms(noise)) / 10 ** (snr / 20))
