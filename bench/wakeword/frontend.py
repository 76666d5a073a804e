"""The wake word's audio front end for training, the same computation as the Swift
`WakeWordFrontEnd`: openWakeWord's melspectrogram and speech-embedding models run through
the TensorFlow Lite C library (ctypes).

Every 1,280 new samples the melspectrogram model reads the last 1,760 (8 frames of 32 mel
bands, scaled x / 10 + 2); every 8 frames the embedding model reads the last 76 frames and
gives 96 values. So one embedding per 80 ms, each seeing the last 775 ms.

As the Swift side does, both models run on TensorFlow Lite's XNNPACK delegate
(`TfLiteXNNPackDelegateCreate`, one thread) when the library has it (`accelerated=False`: the
reference kernels). Unlike the Swift side, which streams one step at a time, the steps of a
whole clip are run in batches of `BATCH` (the models see each step on its own, so the
outputs are the same; `python3 frontend.py --check` compares batched XNNPACK with one step
at a time on the reference kernels).
"""
import ctypes as C
import os
import sys

import numpy as np

CHUNK = 1280
MEL_INPUT = 1760
MEL_WINDOW = 76
BANDS = 32
FEATURES = 96
BATCH = 64

_V = C.c_void_p
_SIGNATURES = {
    "TfLiteModelCreateFromFile": (_V, [C.c_char_p]),
    "TfLiteInterpreterOptionsCreate": (_V, []),
    "TfLiteInterpreterOptionsSetNumThreads": (None, [_V, C.c_int32]),
    "TfLiteInterpreterOptionsAddDelegate": (None, [_V, _V]),
    "TfLiteInterpreterCreate": (_V, [_V, _V]),
    "TfLiteInterpreterResizeInputTensor": (C.c_int, [_V, C.c_int32, C.POINTER(C.c_int), C.c_int32]),
    "TfLiteInterpreterAllocateTensors": (C.c_int, [_V]),
    "TfLiteInterpreterGetInputTensor": (_V, [_V, C.c_int32]),
    "TfLiteInterpreterGetOutputTensor": (_V, [_V, C.c_int32]),
    "TfLiteTensorCopyFromBuffer": (C.c_int, [_V, _V, C.c_size_t]),
    "TfLiteTensorCopyToBuffer": (C.c_int, [_V, _V, C.c_size_t]),
    "TfLiteTensorByteSize": (C.c_size_t, [_V]),
    "TfLiteInterpreterInvoke": (C.c_int, [_V]),
}


class _Model:
    """One model with a fixed input shape [batch, ...]."""

    def __init__(self, lib, path, shape, accelerated):
        self.lib = lib
        model = lib.TfLiteModelCreateFromFile(path.encode())
        options = lib.TfLiteInterpreterOptionsCreate()
        lib.TfLiteInterpreterOptionsSetNumThreads(options, 1)
        self.accelerated = False
        if accelerated and hasattr(lib, "TfLiteXNNPackDelegateCreate"):
            self.delegate = lib.TfLiteXNNPackDelegateCreate(None)
            if self.delegate:
                lib.TfLiteInterpreterOptionsAddDelegate(options, self.delegate)
                self.accelerated = True
        self.interpreter = lib.TfLiteInterpreterCreate(model, options)
        dims = (C.c_int * len(shape))(*shape)
        if not self.interpreter or lib.TfLiteInterpreterResizeInputTensor(self.interpreter, 0, dims, len(shape)) != 0 \
                or lib.TfLiteInterpreterAllocateTensors(self.interpreter) != 0:
            raise RuntimeError(f"cannot load {path}")
        self.batch = shape[0]
        out = lib.TfLiteInterpreterGetOutputTensor(self.interpreter, 0)
        self.out_size = lib.TfLiteTensorByteSize(out)

    def run(self, x):
        """`x`: [batch, ...] float32; the outputs, [batch, n]."""
        lib = self.lib
        x = np.ascontiguousarray(x, dtype=np.float32)
        tensor = lib.TfLiteInterpreterGetInputTensor(self.interpreter, 0)
        lib.TfLiteTensorCopyFromBuffer(tensor, x.ctypes.data_as(_V), x.nbytes)
        if lib.TfLiteInterpreterInvoke(self.interpreter) != 0:
            raise RuntimeError("TensorFlow Lite failed")
        out = lib.TfLiteInterpreterGetOutputTensor(self.interpreter, 0)
        y = np.empty(self.out_size // 4, np.float32)
        lib.TfLiteTensorCopyToBuffer(out, y.ctypes.data_as(_V), self.out_size)
        return y.reshape(self.batch, -1)

    def run_all(self, x):
        """Every row of `x` through the model, `batch` at a time (the last batch padded)."""
        out = []
        for start in range(0, len(x), self.batch):
            part = x[start:start + self.batch]
            if len(part) < self.batch:
                part = np.concatenate([part, np.zeros((self.batch - len(part),) + part.shape[1:], part.dtype)])
            out.append(self.run(part)[:min(self.batch, len(x) - start)])
        return np.concatenate(out) if out else np.zeros((0, self.out_size // 4 // self.batch), np.float32)


class FrontEnd:
    def __init__(self, directory, accelerated=True, batch=BATCH):
        self.directory = directory
        self.lib = C.CDLL(os.path.join(directory, "libtensorflowlite_c.so"))
        for name, (result, arguments) in _SIGNATURES.items():
            function = getattr(self.lib, name)
            function.restype, function.argtypes = result, arguments
        if accelerated:
            try:
                self.lib.TfLiteXNNPackDelegateCreate.restype = _V
                self.lib.TfLiteXNNPackDelegateCreate.argtypes = [_V]
            except AttributeError:
                pass
        t = np.arange(MEL_INPUT * batch, dtype=np.float64)
        voiced = (4000 * np.sin(t * 0.21) * np.sin(t * 0.0031) + 1500 * np.sin(t * 1.7)).reshape(batch, MEL_INPUT)
        t = np.arange(MEL_WINDOW * BANDS * batch, dtype=np.float64)
        frames = (2 + np.sin(t * 0.37) + 0.5 * np.cos(t * 1.3)).reshape(batch, MEL_WINDOW, BANDS, 1)
        self.mel = self._checked("melspectrogram.tflite", [batch, MEL_INPUT], accelerated, voiced)
        self.embedding = self._checked("embedding_model.tflite", [batch, MEL_WINDOW, BANDS, 1], accelerated, frames)
        self.accelerated = self.mel.accelerated and self.embedding.accelerated

    def _checked(self, name, shape, accelerated, probe):
        """The model on XNNPACK when it gives what the reference kernels give on `probe`
        (within a thousandth of their largest value), as WakeWordFrontEnd.swift checks; else on
        the reference kernels (one machine's XNNPACK ran one input at a time wrong)."""
        path = os.path.join(self.directory, name)
        model = _Model(self.lib, path, shape, accelerated)
        if not model.accelerated:
            return model
        reference = _Model(self.lib, path, shape, False)
        fast, slow = model.run(probe), reference.run(probe)
        if np.all(np.abs(fast - slow) <= max(1.0, float(np.abs(slow).max())) / 1000):
            return model
        print(f"frontend: XNNPACK computes {name} otherwise than the reference kernels here; using those",
              file=sys.stderr)
        return reference

    def embeddings(self, samples):
        """Embeddings (n x 96, float32) of int16 `samples` streamed from silence; row k is
        the one computed once (k + 1) chunks beyond the first 76 mel frames had arrived, i.e.
        it ends at sample (k + 10) * 1280 (the first embedding needs 10 chunks)."""
        audio = np.concatenate([np.zeros(MEL_INPUT - CHUNK, np.float32), np.asarray(samples, np.float32)])
        chunks = (len(audio) - (MEL_INPUT - CHUNK)) // CHUNK
        if chunks <= 0:
            return np.zeros((0, FEATURES), np.float32)
        steps = np.lib.stride_tricks.as_strided(audio, (chunks, MEL_INPUT), (CHUNK * 4, 4))
        mels = (self.mel.run_all(steps).reshape(chunks, -1, BANDS)[:, :8] / 10 + 2).reshape(-1, BANDS)
        ends = np.arange(MEL_WINDOW + 4, len(mels) + 1, 8)
        if len(ends) == 0:
            return np.zeros((0, FEATURES), np.float32)
        windows = np.ascontiguousarray(mels[np.add.outer(ends - MEL_WINDOW, np.arange(MEL_WINDOW))])
        return self.embedding.run_all(windows[..., None]).reshape(-1, FEATURES)


def embedding_end_sample(k):
    """The sample where embedding row k's audio ends (see `FrontEnd.embeddings`)."""
    return (k + 10) * CHUNK


if __name__ == "__main__" and "--check" in sys.argv:
    # Batched XNNPACK against one step at a time on the reference kernels, on 20 s of audio.
    import time
    directory = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "models", "hotword", "frontend")
    rng = np.random.default_rng(0)
    t = np.arange(20 * 16000) / 16000
    audio = (3000 * np.sin(2 * np.pi * 220 * t * (1 + 0.5 * np.sin(t))) * (np.sin(3 * t) > 0)
             + 300 * rng.standard_normal(len(t))).astype(np.int16)
    started = time.process_time()
    reference = FrontEnd(directory, accelerated=False, batch=1).embeddings(audio)
    middle = time.process_time()
    fast_front = FrontEnd(directory)
    fast = fast_front.embeddings(audio)
    done = time.process_time()
    print(f"XNNPACK {fast_front.accelerated}; {len(fast)} embeddings; largest difference "
          f"{np.max(np.abs(fast - reference)):.2e}; CPU s per audio s: reference {(middle - started) / 20:.4f}, "
          f"batched {(done - middle) / 20:.4f}")
