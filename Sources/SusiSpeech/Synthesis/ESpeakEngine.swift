import CESpeakNG
import Foundation
import SusiCore
import SusiModel
import Synchronization

/// The process-wide eSpeak NG synthesizer; the only Swift file that calls eSpeak NG.
///
/// eSpeak NG keeps its voice, parameters and callback in global state, so there is one engine
/// per process (`shared()`), and one mutex lets one eSpeak NG call run at a time; other callers
/// wait.
/// Synthesis runs in eSpeak NG's synchronous mode on the caller's thread and blocks it, so
/// call `synthesize` from a thread of your own, or use `stream`, which makes one.
///
/// Audio is 16-bit mono at the engine's own rate (`format`, 22050 Hz), in chunks of about
/// `chunkMilliseconds`.
public final class ESpeakEngine: SpeechSynthesizer, Sendable {
    /// Mono int16 at eSpeak NG's output rate.
    public let format: AudioFormat
    /// The installed voices and variants, read once at start.
    public let catalog: VoiceCatalog
    /// Requested length of each delivered chunk.
    public static let chunkMilliseconds = 50
    /// Held around every eSpeak NG call after `init`, as its state is global.
    private let library = Mutex(())

    private static let sharedEngine: Result<ESpeakEngine, SynthesisError> = {
        do throws(SynthesisError) {
            return .success(try ESpeakEngine())
        } catch {
            return .failure(error)
        }
    }()

    /// The engine, started on first use.
    ///
    /// - Throws: `tts-init-failed` when eSpeak NG cannot find its data (`espeak-ng-data`; the
    ///   `ESPEAK_DATA_PATH` environment variable overrides where it looks).
    public static func shared() throws(SynthesisError) -> ESpeakEngine {
        try sharedEngine.get()
    }

    private init() throws(SynthesisError) {
        // Option bit 15: report missing data instead of calling exit().
        let rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, Int32(Self.chunkMilliseconds), nil, 0x8000)
        guard rate > 0 else {
            throw SynthesisError(.initFailed, "eSpeak NG could not start: is espeak-ng-data installed?")
        }
        espeak_SetSynthCallback { samples, count, events in
            guard let userData = events?.pointee.user_data else { return 1 }
            let sink = Unmanaged<ChunkSink>.fromOpaque(userData).takeUnretainedValue()
            guard let samples, count > 0 else { return 0 }
            return sink.deliver(Array(UnsafeBufferPointer(start: samples, count: Int(count)))) ? 0 : 1
        }
        format = AudioFormat(sampleRate: Int(rate), channels: 1)
        let voices = Self.listVoices(languages: nil).filter { !$0.file.hasPrefix("!v/") }
        let variants = Self.listVoices(languages: "variant").map { variant in
            var named = variant
            named.identifier = String(variant.file.split(separator: "/").last ?? Substring(variant.file))
            return named
        }
        catalog = VoiceCatalog(voices: voices, variants: variants)
    }

    /// Reads `espeak_ListVoices`; its array is eSpeak NG's own and is copied at once.
    /// Called only from `init`, before the engine is shared.
    private static func listVoices(languages: String?) -> [VoiceInfo] {
        let list: UnsafeMutablePointer<UnsafePointer<espeak_VOICE>?>?
        if let languages {
            list = languages.withCString { code in
                var spec = espeak_VOICE()
                spec.languages = code
                return espeak_ListVoices(&spec)
            }
        } else {
            list = espeak_ListVoices(nil)
        }
        guard let list else { return [] }
        var result: [VoiceInfo] = []
        var index = 0
        while let voice = list[index]?.pointee {
            index += 1
            let languages = parseLanguages(voice.languages)
            let file = voice.identifier.map { String(cString: $0) } ?? ""
            let name = voice.name.map { String(cString: $0) } ?? file
            let gender: VoiceInfo.Gender = voice.gender == 1 ? .male : voice.gender == 2 ? .female : .unknown
            result.append(
                VoiceInfo(
                    identifier: languages.first?.code ?? file, name: name, languages: languages,
                    gender: gender, age: Int(voice.age), file: file))
        }
        return result
    }

    /// eSpeak NG packs languages as (priority byte, NUL-terminated code)..., ended by a zero
    /// priority.
    private static func parseLanguages(_ packed: UnsafePointer<CChar>?) -> [VoiceInfo.Language] {
        guard var cursor = packed else { return [] }
        var languages: [VoiceInfo.Language] = []
        while true {
            let priority = Int(UInt8(bitPattern: cursor.pointee))
            guard priority != 0 else { break }
            let code = String(cString: cursor + 1)
            languages.append(VoiceInfo.Language(code: code.lowercased(), priority: priority))
            cursor += 1 + code.utf8.count + 1
        }
        return languages
    }

    /// Synthesizes `text`, calling `onChunk` on this thread with each chunk as eSpeak NG
    /// produces it (the first arrives long before the sentence is done). Return false from
    /// `onChunk` to stop at once; the result then is `.stopped`.
    ///
    /// Blocks until done; waits first while another synthesis runs.
    ///
    /// - Throws: `tts-unknown-voice`, `tts-voice-unavailable`, `tts-invalid-setting`,
    ///   `tts-synthesis-failed`.
    public func synthesize(
        _ text: String, voice: VoiceSettings, onChunk: (AudioChunk) -> Bool
    ) throws(SynthesisError) -> SynthesisEnd {
        let name = try espeakVoiceName(for: voice)
        return try withoutActuallyEscaping(onChunk) { (escapable) throws(SynthesisError) -> SynthesisEnd in
            let sink = ChunkSink(format: format, onChunk: escapable)
            return try library.withLock { _ throws(SynthesisError) -> SynthesisEnd in
                try apply(name: name, voice: voice)
                let status = withExtendedLifetime(sink) {
                    text.withCString { cText in
                        espeak_Synth(
                            cText, strlen(cText) + 1, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8), nil,
                            Unmanaged.passUnretained(sink).toOpaque())
                    }
                }
                guard status == EE_OK else {
                    throw SynthesisError(
                        .synthesisFailed, "eSpeak NG failed (status \(status.rawValue)) on \"\(text.prefix(40))\"")
                }
                return sink.stopped ? .stopped : .finished
            }
        }
    }

    /// Synthesizes `text` into one chunk. Blocks: call it off the cooperative pool.
    public func synthesizeAll(_ text: String, voice: VoiceSettings) throws(SynthesisError) -> AudioChunk {
        var samples: [Int16] = []
        _ = try synthesize(text, voice: voice) { chunk in
            samples += chunk.samples
            return true
        }
        return AudioChunk(format: format, samples: samples)
    }

    /// Synthesizes `text` on a thread of its own, yielding chunks as they are produced.
    /// Cancelling the consuming task (or dropping the stream) stops the synthesis.
    public func stream(_ text: String, voice: VoiceSettings) -> AsyncThrowingStream<AudioChunk, any Error> {
        let (stream, continuation) = AsyncThrowingStream<AudioChunk, any Error>.makeStream()
        let stop = StopFlag()
        continuation.onTermination = { _ in stop.raise() }
        let thread = Thread { [self] in
            do {
                _ = try synthesize(text, voice: voice) { chunk in
                    guard !stop.isRaised else { return false }
                    continuation.yield(chunk)
                    return !stop.isRaised
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        thread.name = "susi-tts"
        thread.start()
        return stream
    }

    /// eSpeak NG's phoneme mnemonics for `text` in `voice` (e.g. `en-us`), one name per
    /// element with stress marks attached (`'u:`): "susi" gives `s`, `'u:`, `z`, `i`.
    ///
    /// Used to give words missing from the recogniser's dictionary a pronunciation. Waits
    /// while another synthesis runs.
    ///
    /// - Throws: `tts-voice-unavailable` when the voice cannot be loaded.
    public func phonemes(of text: String, voice: String = "en-us") throws(SynthesisError) -> [String] {
        try phonemes(of: [text], voice: voice)[0]
    }

    /// The phoneme mnemonics of each of `texts`, with `voice` loaded once for all of them.
    ///
    /// eSpeak NG 1.51 keeps memory from every voice load until the process exits (3 MiB over
    /// a language model build that loaded a voice per word), so give a word list in one call.
    public func phonemes(of texts: [String], voice: String = "en-us") throws(SynthesisError) -> [[String]] {
        let name = catalog.resolve(voice)?.file ?? voice
        return try library.withLock { _ throws(SynthesisError) -> [[String]] in
            guard espeak_SetVoiceByName(name) == EE_OK else {
                throw SynthesisError(.voiceUnavailable, "eSpeak NG could not load voice \"\(voice)\"")
            }
            // Bits 8-23 of the phoneme mode give the separator put between phoneme names.
            let separator = Int32(UInt8(ascii: "_")) << 8
            return texts.map { text in
                var names: [String] = []
                text.withCString { cText in
                    var cursor: UnsafeRawPointer? = UnsafeRawPointer(cText)
                    // espeak_TextToPhonemes translates up to a clause per call and advances `cursor`,
                    // setting it to NULL at the end; its result is an internal buffer, copied at once.
                    while cursor != nil {
                        guard let output = espeak_TextToPhonemes(&cursor, espeakCHARS_UTF8, separator) else { break }
                        let clause = String(cString: output)
                        names += clause.split(whereSeparator: { $0 == "_" || $0 == " " }).map(String.init)
                    }
                }
                return names
            }
        }
    }

    /// The voice string eSpeak NG loads (`gmw/en-GB-scotland+f3`) for `voice`.
    ///
    /// eSpeak NG itself accepts any name (it falls back to a default voice and silently
    /// drops unknown variants), so names are checked against the catalog here.
    ///
    /// - Throws: `tts-unknown-voice` naming the voice or variant, `tts-invalid-setting`.
    public func espeakVoiceName(for voice: VoiceSettings) throws(SynthesisError) -> String {
        try voice.validate()
        let parts = voice.name.split(separator: "+", maxSplits: 1).map(String.init)
        let baseName = parts.first ?? ""
        guard let base = catalog.resolve(baseName) else {
            throw SynthesisError(.unknownVoice, "unknown voice \"\(voice.name)\"; `susi voice list` shows the installed ones")
        }
        let variantName = voice.variant.isEmpty ? (parts.count > 1 ? parts[1] : "") : voice.variant
        guard !variantName.isEmpty else { return base.file }
        guard let variant = catalog.resolveVariant(variantName) else {
            throw SynthesisError(.unknownVoice, "unknown voice variant \"\(variantName)\" for voice \"\(voice.name)\"")
        }
        return "\(base.file)+\(variant.identifier)"
    }

    /// Loads the voice and prosody; called with `library` held.
    private func apply(name: String, voice: VoiceSettings) throws(SynthesisError) {
        guard espeak_SetVoiceByName(name) == EE_OK else {
            throw SynthesisError(
                .voiceUnavailable, "eSpeak NG could not load voice \"\(voice.name)\" (\(name)); MBROLA voices need mbrola")
        }
        let parameters: [(espeak_PARAMETER, Int)] = [
            (espeakRATE, voice.rate), (espeakPITCH, voice.pitch), (espeakVOLUME, voice.volume),
        ]
        for (parameter, value) in parameters where espeak_SetParameter(parameter, Int32(value), 0) != EE_OK {
            throw SynthesisError(.invalidSetting, "eSpeak NG rejected \(value) for parameter \(parameter.rawValue)")
        }
    }
}

/// Carries one synthesis's consumer into eSpeak NG's C callback through its `user_data`.
private final class ChunkSink {
    let format: AudioFormat
    let onChunk: (AudioChunk) -> Bool
    private(set) var stopped = false

    init(format: AudioFormat, onChunk: @escaping (AudioChunk) -> Bool) {
        self.format = format
        self.onChunk = onChunk
    }

    /// Returns false once the consumer asked to stop.
    func deliver(_ samples: [Int16]) -> Bool {
        guard !stopped else { return false }
        if !onChunk(AudioChunk(format: format, samples: samples)) { stopped = true }
        return !stopped
    }
}

/// A one-way flag set from a stream's termination handler, read on the synthesis thread.
private final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    func raise() { flag.store(true, ordering: .relaxed) }
    var isRaised: Bool { flag.load(ordering: .relaxed) }
}
