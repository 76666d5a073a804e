#!/usr/bin/env python3
"""Tests of scripts/whisper-convert.py and of the Whisper files scripts/whisper-deps.sh makes.

    python3 scripts/test_whisper_convert.py [-v]

The unit tests need nothing but Python. The end-to-end tests load DIR/libwhisper.so.1 and
DIR/ggml-tiny.en.bin (DIR is $WHISPER_DIR or models/whisper; run scripts/whisper-deps.sh first)
through ctypes and transcribe a flite sentence and PocketSphinx's recording of a person; they
skip, saying why, when those files or programs are missing. Standard library only.
"""

import ctypes
import hashlib
import importlib.util
import json
import os
import re
import shutil
import struct
import subprocess
import tempfile
import time
import unittest
from array import array

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
WHISPER_DIR = os.environ.get("WHISPER_DIR", os.path.join(ROOT, "models", "whisper"))
GOFORWARD = "/usr/share/pocketsphinx/test/data/goforward.raw"

_spec = importlib.util.spec_from_file_location("whisper_convert", os.path.join(HERE, "whisper-convert.py"))
convert = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(convert)


def f32(x):
    """x rounded to float32, as a Python float."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


# ---------------------------------------------------------------------------------------------
# A minimal CTranslate2 model.bin writer (the format read_ctranslate2 documents) and a reader of
# the ggml file the converter writes, so the tests check both ends independently of the code.

def ct2_string(text):
    raw = text.encode("utf-8")
    return struct.pack("<H", len(raw) + 1) + raw + b"\0"


def write_ct2(path, variables, aliases=()):
    """variables: {name: (shape, dtype id, list of values)}; sorted like CTranslate2 writes them."""
    codes = {0: "f", 1: "b", 2: "h", 4: "e"}
    out = [struct.pack("<I", 6), ct2_string("WhisperSpec"), struct.pack("<II", 3, len(variables))]
    for name in sorted(variables):
        shape, type_id, values = variables[name]
        data = struct.pack(f"<{len(values)}{codes[type_id]}", *values)
        out += [ct2_string(name), struct.pack("<B", len(shape)), struct.pack(f"<{len(shape)}I", *shape),
                struct.pack("<BI", type_id, len(data)), data]
    out.append(struct.pack("<I", len(aliases)))
    for alias, target in aliases:
        out += [ct2_string(alias), ct2_string(target)]
    with open(path, "wb") as file:
        file.write(b"".join(out))


def read_ggml(path):
    """Returns (hparams list, filters rows, tokens, {name: (ggml type, dims as written, values)})."""
    with open(path, "rb") as file:
        blob = file.read()
    offset = 0

    def take(code):
        nonlocal offset
        values = struct.unpack_from("<" + code, blob, offset)
        offset += struct.calcsize("<" + code)
        return values

    magic, *hparams = take("12i")
    assert magic == 0x67676D6C
    n_mel, n_fft = take("2i")
    filters = [list(take(f"{n_fft}f")) for _ in range(n_mel)]
    (count,) = take("i")
    tokens = []
    for _ in range(count):
        (length,) = take("I")
        tokens.append(blob[offset:offset + length])
        offset += length
    tensors = {}
    while offset < len(blob):
        n_dims, length, ggml_type = take("3i")
        dims = take(f"{n_dims}i")
        name = blob[offset:offset + length].decode()
        offset += length
        n = 1
        for d in dims:
            n *= d
        values = take(f"{n}{'e' if ggml_type == 1 else 'f'}")
        tensors[name] = (ggml_type, dims, values)
    return hparams, filters, tokens, tensors


def synthetic_model(directory, state=4, heads=2, mels=3, vocab=6, audio_ctx=5, text_ctx=3):
    """A one-layer CTranslate2 Whisper with distinct values everywhere (so a wrong slice shows),
    float16 like faster-whisper's models; returns the variables written."""
    counter = iter(range(1, 1 << 30))
    fill = lambda n: [((next(counter) % 997) - 498) / 256.0 for _ in range(n)]
    variables = {}

    def add(name, *shape, type_id=4):
        n = 1
        for d in shape:
            n *= d
        variables[name] = (shape, type_id, fill(n))

    def linear(prefix, rows, cols):
        add(prefix + "/weight", rows, cols)
        add(prefix + "/bias", rows)

    def norm(prefix):
        add(prefix + "/gamma", state)
        add(prefix + "/beta", state)

    variables["encoder/num_heads"] = ((), 2, [heads])
    variables["decoder/num_heads"] = ((), 2, [heads])
    variables["decoder/pre_norm"] = ((), 1, [1])
    add("encoder/conv1/weight", state, mels, 3)
    add("encoder/conv1/bias", state)
    add("encoder/conv2/weight", state, state, 3)
    add("encoder/conv2/bias", state)
    add("encoder/position_encodings/encodings", audio_ctx, state)
    norm("encoder/layer_norm")
    norm("encoder/layer_0/self_attention/layer_norm")
    linear("encoder/layer_0/self_attention/linear_0", 3 * state, state)
    linear("encoder/layer_0/self_attention/linear_1", state, state)
    norm("encoder/layer_0/ffn/layer_norm")
    linear("encoder/layer_0/ffn/linear_0", 4 * state, state)
    linear("encoder/layer_0/ffn/linear_1", state, 4 * state)
    add("decoder/embeddings/weight", vocab, state)
    add("decoder/position_encodings/encodings", text_ctx, state)
    norm("decoder/layer_norm")
    norm("decoder/layer_0/self_attention/layer_norm")
    linear("decoder/layer_0/self_attention/linear_0", 3 * state, state)
    linear("decoder/layer_0/self_attention/linear_1", state, state)
    norm("decoder/layer_0/attention/layer_norm")
    linear("decoder/layer_0/attention/linear_0", state, state)
    linear("decoder/layer_0/attention/linear_1", 2 * state, state)
    linear("decoder/layer_0/attention/linear_2", state, state)
    norm("decoder/layer_0/ffn/layer_norm")
    linear("decoder/layer_0/ffn/linear_0", 4 * state, state)
    linear("decoder/layer_0/ffn/linear_1", state, 4 * state)
    write_ct2(os.path.join(directory, "model.bin"), variables,
              aliases=[("decoder/projection/weight", "decoder/embeddings/weight")])
    # GPT-2 spellings: "Ġ" is a space, "Ċ" a newline, "Ã©" the two UTF-8 bytes of "é".
    tokenizer = {"model": {"type": "BPE", "vocab": {"a": 0, "Ġthe": 1, "Ċ": 2, "Ã©": 3, "<|endoftext|>": 4}},
                 "added_tokens": [{"id": 4, "content": "<|endoftext|>"}, {"id": 5, "content": "<|startoftranscript|>"}]}
    with open(os.path.join(directory, "tokenizer.json"), "w", encoding="utf-8") as file:
        json.dump(tokenizer, file)
    return variables


class MelFilterTests(unittest.TestCase):
    # sha256 of OpenAI Whisper's whisper/assets/mel_filters.npz arrays as little-endian float32,
    # with their one -0.0 (the first weight, at 0 Hz) written as 0.0.
    OPENAI_MEL_80 = "85818f156f7e189453901a515e4726d270d307f976e161cf9403e8caab405498"
    OPENAI_MEL_128 = "e399c2d72d2f7375e503c296d8453cefcc0c1e47a9c1a0a09e0d70f59c820f20"

    def test_shape_and_values_match_whisper_assets(self):
        filters = convert.mel_filters(80)
        self.assertEqual((len(filters), {len(r) for r in filters}), (80, {201}))
        self.assertEqual(filters[0][1], f32(0.02486259490251541))
        self.assertEqual(filters[79][199], f32(0.0004487590049393475))
        self.assertEqual(max(filters[40]), f32(0.014735566452145576))
        self.assertEqual(hashlib.sha256(b"".join(r.tobytes() for r in filters)).hexdigest(), self.OPENAI_MEL_80)
        self.assertEqual(hashlib.sha256(b"".join(r.tobytes() for r in convert.mel_filters(128))).hexdigest(),
                         self.OPENAI_MEL_128)

    def test_triangles_have_unit_area_and_rise_in_frequency(self):
        filters = convert.mel_filters(80)
        peaks = [max(range(201), key=row.__getitem__) for row in filters]
        self.assertEqual(peaks, sorted(peaks))
        for m, row in enumerate(filters):
            self.assertTrue(all(w >= 0 for w in row), m)
            # Slaney normalisation: each triangle has area 1 in Hz; a bin is 40 Hz wide.
            self.assertAlmostEqual(sum(row) * 40.0, 1.0, delta=0.1, msg=f"filter {m}")

    def test_mel_scale_is_linear_below_1khz_and_invertible(self):
        self.assertAlmostEqual(convert.hz_to_mel(200.0 / 3), 1.0)
        self.assertAlmostEqual(convert.hz_to_mel(1000.0), 15.0)
        for hz in (0.0, 440.0, 1000.0, 3000.0, 8000.0):
            self.assertAlmostEqual(convert.mel_to_hz(convert.hz_to_mel(hz)), hz, places=6)


class VocabularyTests(unittest.TestCase):
    def test_byte_alphabet_is_a_bijection(self):
        table = convert.bytes_to_unicode()
        self.assertEqual(len(table), 256)
        self.assertEqual(len(set(table.values())), 256)
        self.assertEqual(table[ord(" ")], "Ġ")
        self.assertEqual(table[ord("A")], "A")

    def test_tokens_decode_to_raw_bytes(self):
        self.assertEqual(convert.token_bytes("Ġthe"), b" the")
        self.assertEqual(convert.token_bytes("Ċ"), b"\n")
        self.assertEqual(convert.token_bytes("Ã©"), "é".encode())
        self.assertEqual(convert.token_bytes("ĠBerlin"), b" Berlin")
        with self.assertRaises(convert.ConversionError):
            convert.token_bytes("€")

    def test_vocabulary_stops_before_end_of_text(self):
        with tempfile.TemporaryDirectory() as directory:
            synthetic_model(directory)
            self.assertEqual(convert.vocabulary(directory), [b"a", b" the", b"\n", "é".encode()])


class ConversionTests(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.directory)
        self.source = synthetic_model(self.directory)
        self.output = os.path.join(self.directory, "ggml.bin")
        convert.convert(self.directory, self.output)
        self.hparams, self.filters, self.tokens, self.tensors = read_ggml(self.output)

    def values(self, name, rows=None):
        shape, _, values = self.source[name]
        if rows is None:
            return list(values)
        width = len(values) // shape[0]
        return list(values[rows[0] * width:rows[1] * width])

    def test_header(self):
        # n_vocab, n_audio_ctx/state/head/layer, n_text_ctx/state/head/layer, n_mels, ftype f16
        self.assertEqual(self.hparams, [6, 5, 4, 2, 1, 3, 4, 2, 1, 3, 1])
        self.assertEqual((len(self.filters), len(self.filters[0])), (3, 201))
        self.assertEqual(self.tokens, [b"a", b" the", b"\n", "é".encode()])

    def test_every_whisper_cpp_tensor_is_written_once(self):
        expected = {"encoder.positional_embedding", "encoder.conv1.weight", "encoder.conv1.bias",
                    "encoder.conv2.weight", "encoder.conv2.bias", "encoder.ln_post.weight", "encoder.ln_post.bias",
                    "decoder.positional_embedding", "decoder.token_embedding.weight", "decoder.ln.weight",
                    "decoder.ln.bias"}
        block = ["attn_ln.weight", "attn_ln.bias", "attn.query.weight", "attn.query.bias", "attn.key.weight",
                 "attn.value.weight", "attn.value.bias", "attn.out.weight", "attn.out.bias", "mlp_ln.weight",
                 "mlp_ln.bias", "mlp.0.weight", "mlp.0.bias", "mlp.2.weight", "mlp.2.bias"]
        expected |= {"encoder.blocks.0." + n for n in block}
        expected |= {"decoder.blocks.0." + n for n in block}
        expected |= {"decoder.blocks.0.cross_" + n for n in block if n.startswith("attn")}
        self.assertEqual(set(self.tensors), expected)
        self.assertEqual(len(expected), 7 + 15 + 4 + 24)

    def test_fused_self_attention_splits_into_query_key_value(self):
        for side in ("encoder", "decoder"):
            fused = f"{side}/layer_0/self_attention/linear_0"
            for part, name in enumerate(("query", "key", "value")):
                ggml_type, dims, values = self.tensors[f"{side}.blocks.0.attn.{name}.weight"]
                self.assertEqual((ggml_type, dims), (1, (4, 4)))
                self.assertEqual(list(values), self.values(fused + "/weight", (4 * part, 4 * part + 4)))
            self.assertEqual(list(self.tensors[f"{side}.blocks.0.attn.value.bias"][2]),
                             self.values(fused + "/bias", (8, 12)))
            self.assertNotIn(f"{side}.blocks.0.attn.key.bias", self.tensors)

    def test_fused_cross_attention_key_value(self):
        fused = "decoder/layer_0/attention/linear_1"
        self.assertEqual(list(self.tensors["decoder.blocks.0.cross_attn.key.weight"][2]), self.values(fused + "/weight", (0, 4)))
        self.assertEqual(list(self.tensors["decoder.blocks.0.cross_attn.value.weight"][2]), self.values(fused + "/weight", (4, 8)))
        self.assertEqual(list(self.tensors["decoder.blocks.0.cross_attn.value.bias"][2]), self.values(fused + "/bias", (4, 8)))
        self.assertEqual(list(self.tensors["decoder.blocks.0.cross_attn.query.weight"][2]),
                         self.values("decoder/layer_0/attention/linear_0/weight"))

    def test_types_and_dims_follow_whisper_cpp(self):
        t = self.tensors
        self.assertEqual(t["encoder.conv1.weight"][:2], (1, (3, 3, 4)))  # f16, kernel innermost
        self.assertEqual(t["encoder.conv1.bias"][:2], (0, (1, 4)))       # f32, [n, 1] reversed
        self.assertEqual(t["encoder.positional_embedding"][:2], (0, (4, 5)))
        self.assertEqual(t["decoder.positional_embedding"][:2], (0, (4, 3)))
        self.assertEqual(t["decoder.token_embedding.weight"][:2], (1, (4, 6)))
        self.assertEqual(t["encoder.blocks.0.mlp.0.weight"][:2], (1, (4, 16)))
        self.assertEqual(t["encoder.blocks.0.mlp_ln.bias"][:2], (0, (4,)))
        # f16 values widened to f32 exactly; layer norm gamma and beta become weight and bias.
        self.assertEqual(list(t["encoder.positional_embedding"][2]), self.values("encoder/position_encodings/encodings"))
        self.assertEqual(list(t["encoder.ln_post.weight"][2]), self.values("encoder/layer_norm/gamma"))
        self.assertEqual(list(t["decoder.ln.bias"][2]), self.values("decoder/layer_norm/beta"))

    def test_float32_source_gives_the_same_model(self):
        f32_dir = os.path.join(self.directory, "f32")
        os.mkdir(f32_dir)
        shutil.copy(os.path.join(self.directory, "tokenizer.json"), f32_dir)
        widened = {n: (s, 0 if t == 4 else t, v) for n, (s, t, v) in self.source.items()}
        write_ct2(os.path.join(f32_dir, "model.bin"), widened)
        output = os.path.join(f32_dir, "ggml.bin")
        convert.convert(f32_dir, output)
        with open(output, "rb") as a, open(self.output, "rb") as b:
            self.assertEqual(a.read(), b.read())

    def test_quantised_model_is_refused_without_leaving_a_file(self):
        bad = os.path.join(self.directory, "int8")
        os.mkdir(bad)
        shutil.copy(os.path.join(self.directory, "tokenizer.json"), bad)
        quantised = dict(self.source)
        shape, _, values = quantised["decoder/embeddings/weight"]
        quantised["decoder/embeddings/weight"] = (shape, 1, [int(v) for v in values])
        write_ct2(os.path.join(bad, "model.bin"), quantised)
        with self.assertRaises(convert.ConversionError):
            convert.convert(bad, os.path.join(bad, "ggml.bin"))
        self.assertEqual(sorted(os.listdir(bad)), ["model.bin", "tokenizer.json"])


# ---------------------------------------------------------------------------------------------
# whisper.h 1.8.5 structures, field for field (LP64: x86_64 and aarch64).

class WhisperAheads(ctypes.Structure):
    _fields_ = [("n_heads", ctypes.c_size_t), ("heads", ctypes.c_void_p)]


class WhisperContextParams(ctypes.Structure):
    _fields_ = [("use_gpu", ctypes.c_bool), ("flash_attn", ctypes.c_bool), ("gpu_device", ctypes.c_int),
                ("dtw_token_timestamps", ctypes.c_bool), ("dtw_aheads_preset", ctypes.c_int),
                ("dtw_n_top", ctypes.c_int), ("dtw_aheads", WhisperAheads), ("dtw_mem_size", ctypes.c_size_t)]


class WhisperVadParams(ctypes.Structure):
    _fields_ = [("threshold", ctypes.c_float), ("min_speech_duration_ms", ctypes.c_int),
                ("min_silence_duration_ms", ctypes.c_int), ("max_speech_duration_s", ctypes.c_float),
                ("speech_pad_ms", ctypes.c_int), ("samples_overlap", ctypes.c_float)]


class WhisperFullParams(ctypes.Structure):
    _fields_ = [
        ("strategy", ctypes.c_int), ("n_threads", ctypes.c_int), ("n_max_text_ctx", ctypes.c_int),
        ("offset_ms", ctypes.c_int), ("duration_ms", ctypes.c_int),
        ("translate", ctypes.c_bool), ("no_context", ctypes.c_bool), ("no_timestamps", ctypes.c_bool),
        ("single_segment", ctypes.c_bool), ("print_special", ctypes.c_bool), ("print_progress", ctypes.c_bool),
        ("print_realtime", ctypes.c_bool), ("print_timestamps", ctypes.c_bool),
        ("token_timestamps", ctypes.c_bool), ("thold_pt", ctypes.c_float), ("thold_ptsum", ctypes.c_float),
        ("max_len", ctypes.c_int), ("split_on_word", ctypes.c_bool), ("max_tokens", ctypes.c_int),
        ("debug_mode", ctypes.c_bool), ("audio_ctx", ctypes.c_int), ("tdrz_enable", ctypes.c_bool),
        ("suppress_regex", ctypes.c_char_p), ("initial_prompt", ctypes.c_char_p),
        ("carry_initial_prompt", ctypes.c_bool), ("prompt_tokens", ctypes.c_void_p),
        ("prompt_n_tokens", ctypes.c_int), ("language", ctypes.c_char_p), ("detect_language", ctypes.c_bool),
        ("suppress_blank", ctypes.c_bool), ("suppress_nst", ctypes.c_bool),
        ("temperature", ctypes.c_float), ("max_initial_ts", ctypes.c_float), ("length_penalty", ctypes.c_float),
        ("temperature_inc", ctypes.c_float), ("entropy_thold", ctypes.c_float), ("logprob_thold", ctypes.c_float),
        ("no_speech_thold", ctypes.c_float),
        ("greedy_best_of", ctypes.c_int), ("beam_size", ctypes.c_int), ("beam_patience", ctypes.c_float),
        ("new_segment_callback", ctypes.c_void_p), ("new_segment_callback_user_data", ctypes.c_void_p),
        ("progress_callback", ctypes.c_void_p), ("progress_callback_user_data", ctypes.c_void_p),
        ("encoder_begin_callback", ctypes.c_void_p), ("encoder_begin_callback_user_data", ctypes.c_void_p),
        ("abort_callback", ctypes.c_void_p), ("abort_callback_user_data", ctypes.c_void_p),
        ("logits_filter_callback", ctypes.c_void_p), ("logits_filter_callback_user_data", ctypes.c_void_p),
        ("grammar_rules", ctypes.c_void_p), ("n_grammar_rules", ctypes.c_size_t), ("i_start_rule", ctypes.c_size_t),
        ("grammar_penalty", ctypes.c_float), ("vad", ctypes.c_bool), ("vad_model_path", ctypes.c_char_p),
        ("vad_params", WhisperVadParams),
    ]


LOG_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p)


def words(text):
    """Lower-case words without punctuation; '10' spelled 'ten' (Whisper writes numbers as digits)."""
    spelled = {"10": "ten"}
    return [spelled.get(w, w) for w in re.findall(r"[a-z0-9']+", text.lower())]


@unittest.skipUnless(os.path.exists(os.path.join(WHISPER_DIR, "libwhisper.so.1"))
                     and os.path.exists(os.path.join(WHISPER_DIR, "ggml-tiny.en.bin")),
                     f"no libwhisper.so.1 and ggml-tiny.en.bin in {WHISPER_DIR}: run scripts/whisper-deps.sh")
class WhisperLibraryTests(unittest.TestCase):
    """The converted model in the wheel's libwhisper: loads, and hears the right words."""

    @classmethod
    def setUpClass(cls):
        lib = ctypes.CDLL(os.path.join(WHISPER_DIR, "libwhisper.so.1"))
        cls.quiet = LOG_CALLBACK(lambda level, text, user: None)
        lib.whisper_log_set.argtypes = [LOG_CALLBACK, ctypes.c_void_p]
        lib.whisper_log_set(cls.quiet, None)
        lib.whisper_version.restype = ctypes.c_char_p
        lib.whisper_context_default_params.restype = WhisperContextParams
        lib.whisper_context_default_params_by_ref.restype = ctypes.POINTER(WhisperContextParams)
        lib.whisper_full_default_params.restype = WhisperFullParams
        lib.whisper_full_default_params.argtypes = [ctypes.c_int]
        lib.whisper_full_default_params_by_ref.restype = ctypes.POINTER(WhisperFullParams)
        lib.whisper_full_default_params_by_ref.argtypes = [ctypes.c_int]
        lib.whisper_free_params.argtypes = [ctypes.POINTER(WhisperFullParams)]
        lib.whisper_free_context_params.argtypes = [ctypes.POINTER(WhisperContextParams)]
        lib.whisper_init_from_file_with_params.restype = ctypes.c_void_p
        lib.whisper_init_from_file_with_params.argtypes = [ctypes.c_char_p, WhisperContextParams]
        lib.whisper_full.argtypes = [ctypes.c_void_p, WhisperFullParams, ctypes.POINTER(ctypes.c_float), ctypes.c_int]
        lib.whisper_full_n_segments.argtypes = [ctypes.c_void_p]
        lib.whisper_full_get_segment_text.restype = ctypes.c_char_p
        lib.whisper_full_get_segment_text.argtypes = [ctypes.c_void_p, ctypes.c_int]
        lib.whisper_free.argtypes = [ctypes.c_void_p]
        lib.whisper_model_n_vocab.argtypes = [ctypes.c_void_p]
        lib.whisper_is_multilingual.argtypes = [ctypes.c_void_p]
        cls.lib = lib
        started = time.monotonic()
        cls.context = lib.whisper_init_from_file_with_params(
            os.path.join(WHISPER_DIR, "ggml-tiny.en.bin").encode(), lib.whisper_context_default_params())
        cls.load_seconds = time.monotonic() - started
        if not cls.context:
            raise AssertionError("whisper_init_from_file_with_params returned NULL for ggml-tiny.en.bin")

    @classmethod
    def tearDownClass(cls):
        cls.lib.whisper_free(cls.context)

    def transcribe(self, samples):
        params = self.lib.whisper_full_default_params(0)  # WHISPER_SAMPLING_GREEDY
        params.print_progress = False
        params.print_timestamps = False
        buffer = (ctypes.c_float * len(samples))(*samples)
        started = time.monotonic()
        status = self.lib.whisper_full(self.context, params, buffer, len(samples))
        elapsed = time.monotonic() - started
        self.assertEqual(status, 0)
        n = self.lib.whisper_full_n_segments(self.context)
        text = "".join(self.lib.whisper_full_get_segment_text(self.context, i).decode() for i in range(n))
        print(f"\n  {len(samples) / 16000:.2f} s of audio -> {text.strip()!r} in {elapsed:.2f} s "
              f"(model loaded in {self.load_seconds:.2f} s)", end=" ")
        return text

    def test_library_and_header_agree(self):
        self.assertEqual(self.lib.whisper_version(), b"1.8.5")
        self.assertEqual(self.lib.whisper_model_n_vocab(self.context), 51864)
        self.assertEqual(self.lib.whisper_is_multilingual(self.context), 0)
        by_value = self.lib.whisper_full_default_params(0)
        pointer = self.lib.whisper_full_default_params_by_ref(0)
        try:
            self.assertEqual(bytes(pointer.contents), bytes(by_value))
        finally:
            self.lib.whisper_free_params(pointer)
        # Defaults from whisper_full_default_params, read through the layout above: a wrong
        # field anywhere before the last one would shift these.
        self.assertEqual((by_value.n_max_text_ctx, by_value.greedy_best_of, by_value.beam_size), (16384, 5, -1))
        self.assertEqual(by_value.language, b"en")
        self.assertEqual((by_value.entropy_thold, by_value.logprob_thold), (f32(2.4), -1.0))
        self.assertEqual((by_value.grammar_penalty, by_value.vad_params.threshold), (100.0, 0.5))
        self.assertEqual(by_value.vad_params.speech_pad_ms, 30)
        self.assertEqual(by_value.vad_params.samples_overlap, f32(0.1))
        context = self.lib.whisper_context_default_params_by_ref()
        try:
            self.assertEqual(context.contents.dtw_n_top, -1)
            self.assertEqual(context.contents.dtw_mem_size, 128 * 1024 * 1024)
        finally:
            self.lib.whisper_free_context_params(context)
        self.assertEqual((ctypes.sizeof(WhisperFullParams), ctypes.sizeof(WhisperContextParams)), (304, 48))

    @unittest.skipUnless(os.path.exists(GOFORWARD), f"no {GOFORWARD} (Debian package pocketsphinx-en-us / libpocketsphinx tests)")
    def test_human_recording(self):
        pcm = array("h")
        with open(GOFORWARD, "rb") as file:
            pcm.frombytes(file.read())
        self.assertEqual(words(self.transcribe([s / 32768.0 for s in pcm])), ["go", "forward", "ten", "meters"])

    @unittest.skipUnless(shutil.which("flite") and shutil.which("sox"), "flite or sox is missing")
    def test_synthetic_speech(self):
        with tempfile.TemporaryDirectory() as directory:
            wav, raw = os.path.join(directory, "x.wav"), os.path.join(directory, "x.raw")
            subprocess.run(["flite", "-voice", "slt", "-t", "what is the weather in berlin", "-o", wav], check=True)
            subprocess.run(["sox", wav, "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer", "-t", "raw", raw],
                           check=True)
            pcm = array("h")
            with open(raw, "rb") as file:
                pcm.frombytes(file.read())
        self.assertEqual(words(self.transcribe([s / 32768.0 for s in pcm])),
                         ["what", "is", "the", "weather", "in", "berlin"])


if __name__ == "__main__":
    unittest.main()
