#!/usr/bin/env python3
"""Converts a CTranslate2 Whisper model directory into whisper.cpp's ggml model file.

    scripts/whisper-convert.py MODEL_DIR OUTPUT.bin

MODEL_DIR holds a faster-whisper style CTranslate2 conversion (model.bin, tokenizer.json or
vocabulary.txt) in float16 or float32. The output is the legacy single-file 'ggml' format that
whisper.cpp's whisper_init_from_file_with_params reads, with the same tensor types whisper.cpp's
own converter writes for an f16 model: matrices and convolution kernels in f16, vectors,
convolution biases and positional embeddings in f32. Standard library only; it runs once, at
`make deps` time, so clarity wins over speed. The output is written beside OUTPUT and renamed
into place, so an interrupted run never leaves a half-written model.
"""

import json
import math
import os
import re
import struct
import sys
from array import array

GGML_MAGIC = 0x67676D6C
GGML_F32 = 0
GGML_F16 = 1

# CTranslate2's DataType enum (include/ctranslate2/types.h), by type id in model.bin.
CT2_DTYPES = {0: "float32", 1: "int8", 2: "int16", 3: "int32", 4: "float16", 5: "bfloat16"}
CT2_ITEM_SIZE = {"float32": 4, "int8": 1, "int16": 2, "int32": 4, "float16": 2, "bfloat16": 2}

# Floats converted per struct call: keeps the temporary Python float lists small.
CHUNK = 1 << 20


class ConversionError(Exception):
    """The model directory is not a CTranslate2 Whisper model this converter understands."""


class Tensor:
    """One named variable of a CTranslate2 model: row-major shape, dtype name, raw bytes."""

    __slots__ = ("shape", "dtype", "data")

    def __init__(self, shape, dtype, data):
        self.shape = tuple(shape)
        self.dtype = dtype
        self.data = data

    def count(self):
        return math.prod(self.shape)

    def scalar(self):
        """The value of a rank-0 integer variable (num_heads and friends)."""
        if self.shape or self.dtype not in ("int8", "int16", "int32"):
            raise ConversionError("not an integer scalar")
        code = {"int8": "<b", "int16": "<h", "int32": "<i"}[self.dtype]
        return struct.unpack(code, bytes(self.data))[0]

    def rows(self, start, stop):
        """Rows start..<stop of a matrix (or of a vector), without copying."""
        per_row = CT2_ITEM_SIZE[self.dtype] * (math.prod(self.shape[1:]) if len(self.shape) > 1 else 1)
        return Tensor((stop - start,) + self.shape[1:], self.dtype, self.data[start * per_row:stop * per_row])


# ---------------------------------------------------------------------------------------------
# CTranslate2 model.bin

def read_ctranslate2(path):
    """Reads CTranslate2's model.bin (binary version 4 or later).

    Layout (python/ctranslate2/specs/model_spec.py, _serialize): u32 binary version; string spec
    name; u32 spec revision; u32 variable count; per variable: string name, u8 rank, u32 dims,
    u8 dtype id, u32 byte count, bytes; then u32 alias count and (alias, target) string pairs.
    A string is a u16 length counting a trailing NUL, then the bytes and the NUL. Little-endian.
    Returns (spec name, {name: Tensor}) with aliases resolved to their targets.
    """
    with open(path, "rb") as file:
        blob = memoryview(file.read())
    offset = 0

    def take(code):
        nonlocal offset
        values = struct.unpack_from("<" + code, blob, offset)
        offset += struct.calcsize("<" + code)
        return values

    def string():
        nonlocal offset
        (length,) = take("H")
        raw = bytes(blob[offset:offset + length])
        offset += length
        if not raw.endswith(b"\0"):
            raise ConversionError(f"{path}: malformed string at byte {offset - length}")
        return raw[:-1].decode("utf-8")

    (version,) = take("I")
    if version < 4 or version > 6:
        raise ConversionError(f"{path}: CTranslate2 binary version {version} is not supported (4 to 6 are)")
    spec = string()
    take("I")  # spec revision: the tensor names below are checked instead
    (count,) = take("I")
    variables = {}
    for _ in range(count):
        name = string()
        (rank,) = take("B")
        shape = take("I" * rank) if rank else ()
        (type_id,) = take("B")
        (size,) = take("I")
        dtype = CT2_DTYPES.get(type_id)
        if dtype is None:
            raise ConversionError(f"{path}: {name} has unknown dtype id {type_id}")
        if size != math.prod(shape) * CT2_ITEM_SIZE[dtype]:
            raise ConversionError(f"{path}: {name} has {size} bytes for shape {shape} of {dtype}")
        variables[name] = Tensor(shape, dtype, blob[offset:offset + size])
        offset += size
    (aliases,) = take("I")
    for _ in range(aliases):
        alias, target = string(), string()
        if target not in variables:
            raise ConversionError(f"{path}: alias {alias} names a missing variable {target}")
        variables[alias] = variables[target]
    if offset != len(blob):
        raise ConversionError(f"{path}: {len(blob) - offset} unexpected bytes after the aliases")
    return spec, variables


# ---------------------------------------------------------------------------------------------
# Mel filters: librosa.filters.mel(sr, n_fft, n_mels), i.e. Slaney's mel scale (htk=False) and
# Slaney area normalisation (norm='slaney'), fmin 0 and fmax sr/2; the matrix OpenAI's Whisper
# ships as mel_filters.npz.

_F_SP = 200.0 / 3           # Hz per mel below 1 kHz (the linear part)
_MIN_LOG_HZ = 1000.0
_MIN_LOG_MEL = _MIN_LOG_HZ / _F_SP
_LOG_STEP = math.log(6.4) / 27.0


def hz_to_mel(hz):
    if hz >= _MIN_LOG_HZ:
        return _MIN_LOG_MEL + math.log(hz / _MIN_LOG_HZ) / _LOG_STEP
    return hz / _F_SP


def mel_to_hz(mel):
    if mel >= _MIN_LOG_MEL:
        return _MIN_LOG_HZ * math.exp(_LOG_STEP * (mel - _MIN_LOG_MEL))
    return _F_SP * mel


def mel_filters(n_mels=80, n_fft=400, sample_rate=16000):
    """The n_mels x (1 + n_fft/2) filter bank as a list of rows of float32 values (as array('f'))."""
    bins = 1 + n_fft // 2
    fft_hz = [i * (sample_rate / 2) / (bins - 1) for i in range(bins)]
    low, high = hz_to_mel(0.0), hz_to_mel(sample_rate / 2)
    edges = [mel_to_hz(low + i * (high - low) / (n_mels + 1)) for i in range(n_mels + 2)]
    rows = []
    for m in range(n_mels):
        left, centre, right = edges[m], edges[m + 1], edges[m + 2]
        # librosa stores the triangle as float32 before scaling it; do the same to match it.
        triangle = array("f", (max(0.0, min((f - left) / (centre - left), (right - f) / (right - centre)))
                               for f in fft_hz))
        area = 2.0 / (right - left)
        rows.append(array("f", (w * area for w in triangle)))
    return rows


# ---------------------------------------------------------------------------------------------
# Vocabulary: GPT-2's byte-level BPE spells every byte as a printable character; whisper.cpp
# wants the raw bytes.

def bytes_to_unicode():
    """GPT-2's table from each byte to the character that stands for it in the vocabulary."""
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) \
        + list(range(ord("®"), ord("ÿ") + 1))
    table = {b: chr(b) for b in printable}
    extra = 0
    for b in range(256):
        if b not in table:
            table[b] = chr(256 + extra)
            extra += 1
    return table


_BYTE_OF = {c: b for b, c in bytes_to_unicode().items()}


def token_bytes(token):
    """The raw bytes a byte-level BPE token string stands for."""
    try:
        return bytes(_BYTE_OF[c] for c in token)
    except KeyError as error:
        raise ConversionError(f"token {token!r} has a character outside GPT-2's byte alphabet") from error


def vocabulary(model_dir):
    """The ordinary tokens (ids 0..<end-of-text) as raw bytes, in id order.

    whisper.cpp numbers the special tokens (<|endoftext|> and up) itself from n_vocab, as its own
    converter leaves them out of the file.
    """
    tokenizer = os.path.join(model_dir, "tokenizer.json")
    if os.path.exists(tokenizer):
        with open(tokenizer, encoding="utf-8") as file:
            vocab = json.load(file)["model"]["vocab"]
        end = vocab.get("<|endoftext|>")
        if end is None:
            raise ConversionError(f"{tokenizer}: no <|endoftext|> token")
        by_id = {i: t for t, i in vocab.items() if i < end}
        if sorted(by_id) != list(range(end)):
            raise ConversionError(f"{tokenizer}: token ids below <|endoftext|> are not 0..{end - 1}")
        return [token_bytes(by_id[i]) for i in range(end)]
    listing = os.path.join(model_dir, "vocabulary.txt")
    with open(listing, encoding="utf-8") as file:
        tokens = file.read().split("\n")
    if "<|endoftext|>" not in tokens:
        raise ConversionError(f"{listing}: no <|endoftext|> token")
    return [token_bytes(t) for t in tokens[:tokens.index("<|endoftext|>")]]


# ---------------------------------------------------------------------------------------------
# Tensors

def _layers(variables, prefix):
    found = {int(m.group(1)) for n in variables if (m := re.match(re.escape(prefix) + r"/layer_(\d+)/", n))}
    if found != set(range(len(found))):
        raise ConversionError(f"{prefix} layers are not numbered 0..{len(found) - 1}")
    return len(found)


def hyperparameters(variables):
    """whisper.cpp's hparams, in file order, read off the tensors' shapes."""
    try:
        embeddings = variables["decoder/embeddings/weight"].shape
        audio_positions = variables["encoder/position_encodings/encodings"].shape
        text_positions = variables["decoder/position_encodings/encodings"].shape
        return {
            "n_vocab": embeddings[0],
            "n_audio_ctx": audio_positions[0],
            "n_audio_state": audio_positions[1],
            "n_audio_head": variables["encoder/num_heads"].scalar(),
            "n_audio_layer": _layers(variables, "encoder"),
            "n_text_ctx": text_positions[0],
            "n_text_state": text_positions[1],
            "n_text_head": variables["decoder/num_heads"].scalar(),
            "n_text_layer": _layers(variables, "decoder"),
            "n_mels": variables["encoder/conv1/weight"].shape[1],
        }
    except KeyError as error:
        raise ConversionError(f"not a CTranslate2 Whisper model: no {error.args[0]}") from error


def _split(tensor, parts):
    """Splits a fused projection (rows stacked as q, k, v) into equal row blocks."""
    rows = tensor.shape[0] // parts
    if rows * parts != tensor.shape[0]:
        raise ConversionError(f"cannot split {tensor.shape[0]} rows into {parts}")
    return [tensor.rows(i * rows, (i + 1) * rows) for i in range(parts)]


def _linear(variables, source, target, bias=True):
    yield target + ".weight", variables[source + "/weight"]
    if bias:
        yield target + ".bias", variables[source + "/bias"]


def _norm(variables, source, target):
    yield target + ".weight", variables[source + "/gamma"]
    yield target + ".bias", variables[source + "/beta"]


def _fused(variables, source, targets):
    """A fused projection split into whisper.cpp's separate ones.

    whisper.cpp has no key bias: Whisper's key projection has none (CTranslate2 stores zeros
    there), and a key bias would only add q·b to every score of a query, which softmax ignores.
    """
    weights = _split(variables[source + "/weight"], len(targets))
    biases = _split(variables[source + "/bias"], len(targets))
    for target, weight, bias in zip(targets, weights, biases):
        yield target + ".weight", weight
        if not target.endswith(".key"):
            yield target + ".bias", bias


def whisper_tensors(variables, hparams):
    """Yields (whisper.cpp name, Tensor) for every tensor whisper.cpp loads, in its order."""
    v = variables
    yield "encoder.positional_embedding", v["encoder/position_encodings/encodings"]
    for n in (1, 2):
        yield from _linear(v, f"encoder/conv{n}", f"encoder.conv{n}")
    yield from _norm(v, "encoder/layer_norm", "encoder.ln_post")
    for i in range(hparams["n_audio_layer"]):
        yield from _block(v, f"encoder/layer_{i}", f"encoder.blocks.{i}")
    yield "decoder.positional_embedding", v["decoder/position_encodings/encodings"]
    yield "decoder.token_embedding.weight", v["decoder/embeddings/weight"]
    yield from _norm(v, "decoder/layer_norm", "decoder.ln")
    for i in range(hparams["n_text_layer"]):
        yield from _block(v, f"decoder/layer_{i}", f"decoder.blocks.{i}", cross_attention=True)


def _block(v, s, t, cross_attention=False):
    """One transformer block's tensors, CTranslate2 scope `s` to whisper.cpp prefix `t`, in
    whisper.cpp's order: self-attention, cross-attention (decoder only), feed-forward."""
    yield from _norm(v, s + "/self_attention/layer_norm", t + ".attn_ln")
    yield from _fused(v, s + "/self_attention/linear_0", [t + ".attn.query", t + ".attn.key", t + ".attn.value"])
    yield from _linear(v, s + "/self_attention/linear_1", t + ".attn.out")
    if cross_attention:
        yield from _norm(v, s + "/attention/layer_norm", t + ".cross_attn_ln")
        yield from _linear(v, s + "/attention/linear_0", t + ".cross_attn.query")
        yield from _fused(v, s + "/attention/linear_1", [t + ".cross_attn.key", t + ".cross_attn.value"])
        yield from _linear(v, s + "/attention/linear_2", t + ".cross_attn.out")
    yield from _norm(v, s + "/ffn/layer_norm", t + ".mlp_ln")
    yield from _linear(v, s + "/ffn/linear_0", t + ".mlp.0")
    yield from _linear(v, s + "/ffn/linear_1", t + ".mlp.2")


def ggml_layout(name, tensor):
    """(ggml type, shape as whisper.cpp's converter writes it) for one tensor of an f16 model."""
    shape = tensor.shape
    if name in ("encoder.conv1.bias", "encoder.conv2.bias"):
        return GGML_F32, (shape[0], 1)
    if len(shape) < 2 or name.endswith("positional_embedding"):
        return GGML_F32, shape
    return GGML_F16, shape


def _converted(tensor, ggml_type):
    """The tensor's bytes as little-endian f16 or f32, converting (in chunks) when needed."""
    source = {"float16": "e", "float32": "f"}.get(tensor.dtype)
    if source is None:
        raise ConversionError(f"{tensor.dtype} tensors are not supported: convert the model as float16 or float32")
    target = "e" if ggml_type == GGML_F16 else "f"
    if source == target:
        yield tensor.data
        return
    total = tensor.count()
    size = CT2_ITEM_SIZE[tensor.dtype]
    for start in range(0, total, CHUNK):
        n = min(CHUNK, total - start)
        values = struct.unpack_from(f"<{n}{source}", tensor.data, start * size)
        yield struct.pack(f"<{n}{target}", *values)


# ---------------------------------------------------------------------------------------------
# Output

HPARAM_ORDER = ("n_vocab", "n_audio_ctx", "n_audio_state", "n_audio_head", "n_audio_layer",
                "n_text_ctx", "n_text_state", "n_text_head", "n_text_layer", "n_mels")


def write_ggml(file, hparams, filters, tokens, tensors):
    """Writes whisper.cpp's legacy ggml model: magic, hparams and ftype (1: f16), mel filters
    (n_mel, n_fft, floats), vocabulary (count, then u32 length and bytes each), then per tensor
    n_dims, name length, ggml type, dims innermost first, name and data. Returns the tensor count."""
    pack = lambda *ints: file.write(struct.pack(f"<{len(ints)}i", *ints))
    pack(GGML_MAGIC, *(hparams[k] for k in HPARAM_ORDER), GGML_F16)
    pack(len(filters), len(filters[0]))
    for row in filters:
        file.write(struct.pack(f"<{len(row)}f", *row))
    pack(len(tokens))
    for token in tokens:
        file.write(struct.pack("<I", len(token)))
        file.write(token)
    count = 0
    for name, tensor in tensors:
        ggml_type, shape = ggml_layout(name, tensor)
        encoded = name.encode("utf-8")
        pack(len(shape), len(encoded), ggml_type, *reversed(shape))
        file.write(encoded)
        for chunk in _converted(tensor, ggml_type):
            file.write(chunk)
        count += 1
    return count


def convert(model_dir, output):
    """Converts MODEL_DIR into OUTPUT; returns (hparams, tensor count)."""
    spec, variables = read_ctranslate2(os.path.join(model_dir, "model.bin"))
    if spec != "WhisperSpec":
        raise ConversionError(f"{model_dir}: a {spec}, not a WhisperSpec")
    projection = variables.get("decoder/projection/weight")
    embeddings = variables.get("decoder/embeddings/weight")
    if projection is not None and embeddings is not None and projection is not embeddings \
            and bytes(projection.data) != bytes(embeddings.data):
        # whisper.cpp computes the logits with the token embedding; it has no separate head.
        raise ConversionError(f"{model_dir}: the output projection is not tied to the token embedding")
    hparams = hyperparameters(variables)
    tokens = vocabulary(model_dir)
    filters = mel_filters(hparams["n_mels"])
    partial = output + ".partial"
    try:
        with open(partial, "wb") as file:
            count = write_ggml(file, hparams, filters, tokens, whisper_tensors(variables, hparams))
        os.replace(partial, output)
    except BaseException:
        if os.path.exists(partial):
            os.remove(partial)
        raise
    return hparams, count


def main(argv):
    if len(argv) != 3:
        print("usage: whisper-convert.py MODEL_DIR OUTPUT.bin", file=sys.stderr)
        return 2
    try:
        hparams, count = convert(argv[1], argv[2])
    except (ConversionError, OSError, KeyError, ValueError) as error:
        print(f"whisper-convert: {error}", file=sys.stderr)
        return 1
    print(f"whisper-convert: {argv[2]}: {count} tensors, {hparams['n_audio_layer']} encoder and "
          f"{hparams['n_text_layer']} decoder layers, width {hparams['n_audio_state']}, vocabulary {hparams['n_vocab']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
