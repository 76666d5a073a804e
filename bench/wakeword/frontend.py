"""The wake word's audio front end for training, the same computation as the Swift
`WakeWordFrontEnd`: openWakeWord's melspectrogram and speech-embedding models run through
the TensorFlow Lite C library (ctypes), streaming 80 ms at a time.

Every 1,280 new samples the melspectrogram model reads the last 1,760 (8 frames of 32 mel
bands, scaled x / 10 + 2); every 8 frames the embedding model reads the last 76 frames and
gives 96 values. So one embedding per 80 ms, each seeing the last 775 ms.
"""
import ctypes as C
import os

import numpy as np

CHUNK = 1280
MEL_INPUT = 1760
MEL_WINDOW = 76
BANDS = 32
FEATURES = 96

_V = C.c_void_p
_SIGNATURES = {
    "TfLiteModelCreateFromFile": (_V, [C.c_char_p]),
    "TfLiteInterpreterOptionsCreate": (_V, []),
    "TfLiteInterpreterOptionsSetNumThreads": (None, [_V, C.c_int32]),
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


class FrontEnd:
    def __init__(self, directory):
        self.lib = C.CDLL(os.path.join(directory, "libtensorflowlite_c.so"))
        for name, (result, arguments) in _SIGNATURES.items():
            function = getattr(self.lib, name)
            function.restype, function.argtypes = result, arguments
        self.mel = self._interpreter(os.path.join(directory, "melspectrogram.tflite"), [1, MEL_INPUT])
        self.embedding = self._interpreter(os.path.join(directory, "embedding_model.tflite"), [1, MEL_WINDOW, BANDS, 1])

    def _interpreter(self, path, shape):
        model = self.lib.TfLiteModelCreateFromFile(path.encode())
        options = self.lib.TfLiteInterpreterOptionsCreate()
        self.lib.TfLiteInterpreterOptionsSetNumThreads(options, 1)
        interpreter = self.lib.TfLiteInterpreterCreate(model, options)
        dims = (C.c_int * len(shape))(*shape)
        if not interpreter or self.lib.TfLiteInterpreterResizeInputTensor(interpreter, 0, dims, len(shape)) != 0 \
                or self.lib.TfLiteInterpreterAllocateTensors(interpreter) != 0:
            raise RuntimeError(f"cannot load {path}")
        return interpreter

    def _run(self, interpreter, x):
        x = np.ascontiguousarray(x, dtype=np.float32)
        tensor = self.lib.TfLiteInterpreterGetInputTensor(interpreter, 0)
        self.lib.TfLiteTensorCopyFromBuffer(tensor, x.ctypes.data_as(_V), x.nbytes)
        self.lib.TfLiteInterpreterInvoke(interpreter)
        out = self.lib.TfLiteInterpreterGetOutputTensor(interpreter, 0)
        size = self.lib.TfLiteTensorByteSize(out)
        y = np.empty(size // 4, np.float32)
        self.lib.TfLiteTensorCopyToBuffer(out, y.ctypes.data_as(_V), size)
        return y

    def embeddings(self, samples):
        """Embeddings (n x 96, float32) of int16 `samples` streamed from silence; row k is
        the one computed once (k + 1) chunks beyond the first 76 mel frames had arrived, i.e.
        it ends at sample (k + 10) * 1280 (the first embedding needs 10 chunks)."""
        audio = np.concatenate([np.zeros(MEL_INPUT - CHUNK, np.float32), np.asarray(samples, np.float32)])
        chunks = (len(audio) - (MEL_INPUT - CHUNK)) // CHUNK
        mels = np.empty((chunks * 8, BANDS), np.float32)
        for c in range(chunks):
            frame = self._run(self.mel, audio[c * CHUNK:c * CHUNK + MEL_INPUT][None, :])
            mels[c * 8:(c + 1) * 8] = frame.reshape(-1, BANDS)[:8] / 10 + 2
        out = []
        for end in range(MEL_WINDOW + 4, len(mels) + 1, 8):
            out.append(self._run(self.embedding, mels[end - MEL_WINDOW:end][None, :, :, None]))
        return np.array(out, np.float32).reshape(-1, FEATURES)


def embedding_end_sample(k):
    """The sample where embedding row k's audio ends (see `FrontEnd.embeddings`)."""
    return (k + 10) * CHUNK
