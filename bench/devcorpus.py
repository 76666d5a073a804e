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


def mix(speech, noise, gain):
    """`speech` with `noise` times `gain` added, clipped to 16 bits."""
    return dev.array.array("h", (max(-32768, min(32767, int(s + gain * z))) for s, z in zip(speech, noise)))


def mix_under(speech, noise, level, snr):
    """`speech` with `noise` scaled to `snr` dB under `level` (an RMS), clipped to 16 bits."""
    return mix(speech, noise, level / max(1.0, dev.rms(noise)) / 10 ** (snr / 20))
