import CWhisper
import Foundation
import SusiModel

#if canImport(Glibc)
    import Glibc
#endif

/// Whisper (whisper.cpp's `libwhisper`, loaded at run time with `dlopen`) hearing a whole
/// command at once, after it ended: the speaker's `UtteranceTranscriber` when `stt.engine` is
/// `whisper`. The library and the converted model come from `scripts/whisper-deps.sh` into
/// `models/whisper`; without them the speaker keeps PocketSphinx.
///
/// Two traps of whisper.cpp are handled here. The encoder's window is sized to the audio, for
/// speed, but never close to it, and never under 512 frames (10 s): a small window makes the
/// decoder repeat itself to the token limit ("go forward ten meters" said 44 times from 2.8 s
/// of audio in 256 frames, and a 1.9 s question repeated, where 512 heard both once); and it
/// is a multiple of 256 frames (with flash attention, other sizes read what the previous
/// utterance left): `audioContext(forSeconds:)`. Timestamps stay on: without them a 1.8 s
/// "tell me a joke" over a faint noise floor came out four times in 512 frames, with them
/// once, as in 768. No temperature fallbacks, a token limit by length and a deadline keep any
/// utterance within about `maximumSeconds`; what still repeats is said once (`withoutRepeats`).
///
/// Loading takes about 0.1 s and 80-150 MB (tiny.en). Blocking; one thread at a time.
public final class WhisperTranscriber: UtteranceTranscriber {
    /// The longest a transcription may take before it is abandoned (then it throws, and the
    /// caller keeps the streaming recogniser's reading): `maximumSeconds` for tiny.en, and
    /// `maximumSecondsBase` for base, which costs about three times as much.
    public static let maximumSeconds = 1.2
    public static let maximumSecondsBase = 3.5
    /// whisper.cpp refuses audio shorter than a second: shorter commands are padded with quiet.
    static let minimumFrames = 16_000 + 1_600

    /// The model's name (`tiny.en`, `base`).
    public let model: String
    /// What `whisper_version()` says.
    public let version: String
    private let threads: Int
    /// How long one transcription may take (`maximumSeconds`, or `maximumSecondsBase` for base).
    public let deadlineSeconds: Double
    private let language: String
    private let functions: Functions
    private let context: UnsafeMutableRawPointer

    /// The library's functions the speaker calls.
    private struct Functions {
        let fullDefaultParams: susi_whisper_full_default_params_fn
        let full: susi_whisper_full_fn
        let segments: susi_whisper_full_n_segments_fn
        let segmentText: susi_whisper_full_get_segment_text_fn
        let free: susi_whisper_free_fn
    }

    /// The library file in `directory`.
    public static func libraryPath(in directory: String) -> String { directory + "/libwhisper.so.1" }
    /// The model file of `model` in `directory` (`ggml-tiny.en.bin`).
    public static func modelPath(_ model: String, in directory: String) -> String { directory + "/ggml-\(model).bin" }

    /// Whether `directory` holds the library and `model`'s file.
    public static func isInstalled(_ model: String, in directory: String) -> Bool {
        FileManager.default.fileExists(atPath: libraryPath(in: directory))
            && FileManager.default.fileExists(atPath: modelPath(model, in: directory))
    }

    /// Loads the library and `model` from `directory`, decoding with `threads` threads in
    /// `language` (ISO 639-1; an English-only model hears English whatever it is told), each
    /// transcription within `deadlineSeconds` (by default the model's: `maximumSeconds` or
    /// `maximumSecondsBase`).
    ///
    /// - Throws: `stt-model-missing` when the library, a function of it or the model file is
    ///   missing; `stt-init-failed` when the model does not load.
    public init(
        directory: String, model: String = "tiny.en", threads: Int = 2, language: String = "en",
        deadlineSeconds: Double? = nil
    ) throws(SpeechError) {
        let library = Self.libraryPath(in: directory)
        guard FileManager.default.fileExists(atPath: library), let handle = dlopen(library, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "no such file"
            throw SpeechError(.modelMissing, "cannot load Whisper from \(library): \(reason) (scripts/whisper-deps.sh)")
        }
        func symbol<Function>(_ name: String, _: Function.Type) throws(SpeechError) -> Function {
            guard let address = dlsym(handle, name) else { throw SpeechError(.modelMissing, "\(library) has no \(name)") }
            return unsafeBitCast(address, to: Function.self)
        }
        let logSet = try symbol("whisper_log_set", susi_whisper_log_set_fn.self)
        let versionOf = try symbol("whisper_version", susi_whisper_version_fn.self)
        let contextDefaults = try symbol("whisper_context_default_params", susi_whisper_context_default_params_fn.self)
        let initFromFile = try symbol("whisper_init_from_file_with_params", susi_whisper_init_from_file_with_params_fn.self)
        functions = Functions(
            fullDefaultParams: try symbol("whisper_full_default_params", susi_whisper_full_default_params_fn.self),
            full: try symbol("whisper_full", susi_whisper_full_fn.self),
            segments: try symbol("whisper_full_n_segments", susi_whisper_full_n_segments_fn.self),
            segmentText: try symbol("whisper_full_get_segment_text", susi_whisper_full_get_segment_text_fn.self),
            free: try symbol("whisper_free", susi_whisper_free_fn.self))
        // Its loading and timing report would go to stderr on every command.
        logSet({ _, _, _ in }, nil)
        version = versionOf().map { String(cString: $0) } ?? "?"
        let path = Self.modelPath(model, in: directory)
        guard FileManager.default.fileExists(atPath: path) else {
            throw SpeechError(.modelMissing, "no Whisper model \(path) (scripts/whisper-deps.sh)")
        }
        var parameters = contextDefaults()
        parameters.use_gpu = false
        guard let loaded = initFromFile(path, parameters) else {
            throw SpeechError(.initFailed, "Whisper cannot load \(path)")
        }
        context = loaded
        self.model = model
        self.deadlineSeconds = deadlineSeconds ?? (model == "base" ? Self.maximumSecondsBase : Self.maximumSeconds)
        self.threads = max(1, threads)
        self.language = language
    }

    deinit {
        functions.free(context)
    }

    /// The encoder window for `seconds` of audio, in frames of 20 ms (1500 is whisper.cpp's
    /// full 30 s): 64 frames more than the audio, rounded up to a multiple of 256, at least 512.
    static func audioContext(forSeconds seconds: Double) -> Int {
        let frames = Int((1500 * seconds / 30).rounded(.up)) + 64
        return min(1500, max(512, (frames + 255) / 256 * 256))
    }

    /// At most this many tokens for `seconds` of audio: people say about three words a
    /// second, a word is one to three tokens.
    static func maximumTokens(forSeconds seconds: Double) -> Int { 16 + Int(12 * seconds) }

    /// The words of `samples` (16 kHz mono) as the streaming recogniser writes them: lower
    /// case, without punctuation or Whisper's notes on non-speech ("[BLANK_AUDIO]", "(music)");
    /// numbers stay digits ("set a timer for 5 minutes"). Empty when nothing was said.
    ///
    /// - Throws: `stt-decode-failed` when whisper.cpp fails or takes longer than
    ///   `deadlineSeconds`.
    public func transcribe(_ samples: [Int16]) throws(SpeechError) -> String {
        var audio = samples.map { Float($0) / 32768 }
        if audio.count < Self.minimumFrames { audio += [Float](repeating: 0, count: Self.minimumFrames - audio.count) }
        var parameters = functions.fullDefaultParams(susi_whisper_sampling_greedy)
        parameters.n_threads = Int32(threads)
        parameters.no_context = true
        parameters.no_timestamps = false
        parameters.single_segment = true
        parameters.print_special = false
        parameters.print_progress = false
        parameters.print_realtime = false
        parameters.print_timestamps = false
        parameters.suppress_nst = true
        parameters.temperature_inc = 0
        let seconds = Double(audio.count) / 16_000
        parameters.audio_ctx = Int32(Self.audioContext(forSeconds: seconds))
        parameters.max_tokens = Int32(Self.maximumTokens(forSeconds: seconds))
        let deadline = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
        defer { deadline.deallocate() }
        deadline.pointee = Self.monotonicNanoseconds() + UInt64(deadlineSeconds * 1e9)
        parameters.abort_callback = { userData in
            guard let userData else { return false }
            return WhisperTranscriber.monotonicNanoseconds() > userData.assumingMemoryBound(to: UInt64.self).pointee
        }
        parameters.abort_callback_user_data = UnsafeMutableRawPointer(deadline)
        let status = language.withCString { code in
            parameters.language = code
            return audio.withUnsafeBufferPointer { functions.full(context, parameters, $0.baseAddress, Int32($0.count)) }
        }
        guard status == 0 else {
            let late = Self.monotonicNanoseconds() > deadline.pointee
            throw SpeechError(
                .decodeFailed, late ? "Whisper took longer than \(deadlineSeconds) s" : "Whisper failed (\(status))")
        }
        let text = (0..<functions.segments(context)).compactMap { segment in
            functions.segmentText(context, segment).map { String(cString: $0) }
        }.joined(separator: " ")
        let heard = Self.plain(Self.withoutRepeats(Self.words(of: text)))
        let words = heard.split(separator: " ").count
        guard words <= Self.maximumWords(forSeconds: Double(samples.count) / 16_000) else {
            throw SpeechError(
                .decodeFailed, "Whisper heard \(words) words in \(samples.count / 16) ms of audio, more than anyone says: a loop")
        }
        return heard
    }

    /// More words than people say in `seconds` (about three a second): what a decoding loop
    /// that is not one phrase said over and over gives ("1 2 1 3 1 1 1 ..." for "what room are
    /// you in" in an eSpeak NG voice).
    static func maximumWords(forSeconds seconds: Double) -> Int { 4 + Int(5 * seconds) }

    /// Lower-case words without punctuation; apostrophes, and points and commas between
    /// digits, stay ("what's", "3.5", "1,000"), as does "%".
    static func plain(_ text: String) -> String {
        let characters = Array(text.lowercased())
        var kept = ""
        for (index, character) in characters.enumerated() {
            let between =
                index > 0 && index + 1 < characters.count && characters[index - 1].isNumber
                && characters[index + 1].isNumber
            if character.isLetter || character.isNumber || character == "'" || character == "%" {
                kept.append(character)
            } else if (character == "." || character == ",") && between {
                kept.append(character)
            } else {
                kept.append(" ")
            }
        }
        return kept.split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "'")) }
            .filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// `text` without bracketed notes on non-speech and surrounding blanks.
    static func words(of text: String) -> String {
        let notes = /\[[^\]]*\]|\([^)]*\)|\*[^*]*\*/
        return text.replacing(notes, with: "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// `text` said once when it is one phrase said over and over (the decoder's loop, perhaps
    /// cut off by the token limit): "Tell me a joke Tell me a joke Tell me" is "Tell me a joke".
    static func withoutRepeats(_ text: String) -> String {
        let words = text.split(separator: " ").map(String.init)
        let plain = words.map { $0.lowercased().trimmingCharacters(in: .punctuationCharacters) }
        for period in stride(from: 1, through: plain.count / 2, by: 1)
        where plain.indices.allSatisfy({ plain[$0] == plain[$0 % period] }) {
            return words[..<period].joined(separator: " ")
        }
        return text
    }

    private static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
