import Foundation

/// When a command ends, in milliseconds of audio.
public struct EndpointerSettings: Sendable, Equatable {
    /// Trailing silence that ends a command that may be unfinished (`stt.end_silence_ms`).
    public var endSilenceMs: Int
    /// Trailing silence that ends a command already known to be complete.
    public var shortSilenceMs: Int
    /// Give up when no speech starts within this time (`stt.no_speech_timeout_ms`).
    public var noSpeechTimeoutMs: Int
    /// Longest command (`stt.max_utterance_ms`).
    public var maxUtteranceMs: Int

    public init(endSilenceMs: Int = 600, shortSilenceMs: Int = 200, noSpeechTimeoutMs: Int = 5000, maxUtteranceMs: Int = 10000) {
        self.endSilenceMs = endSilenceMs
        self.shortSilenceMs = min(shortSilenceMs, endSilenceMs)
        self.noSpeechTimeoutMs = noSpeechTimeoutMs
        self.maxUtteranceMs = maxUtteranceMs
    }

    /// The settings from the `stt.*` config keys.
    public init(_ stt: Config.STT) {
        self.init(endSilenceMs: stt.endSilenceMs, noSpeechTimeoutMs: stt.noSpeechTimeoutMs, maxUtteranceMs: stt.maxUtteranceMs)
    }
}

/// Why a command ended.
public enum EndReason: String, Sendable, Equatable {
    /// Trailing silence of `endSilenceMs`.
    case silence
    /// Trailing silence of `shortSilenceMs` after a command known to be complete.
    case completeCommand
    /// Nobody spoke within `noSpeechTimeoutMs`.
    case noSpeech
    /// The command reached `maxUtteranceMs`.
    case maxLength
}

/// Where the endpointer is after a frame.
public enum EndpointState: Sendable, Equatable {
    case waitingForSpeech
    case speaking
    case ended(EndReason)
}

/// A voice-activity endpointer for 16 kHz mono audio, fed in any chunk size.
///
/// Works on 10 ms frames: a frame is voiced when its energy is clearly above a tracked noise
/// floor (falls fast, rises slowly) and above an absolute minimum. Speech starts after a few
/// voiced frames in a row; it ends after the configured trailing silence. Value type, no I/O:
/// feed it from one thread.
public struct Endpointer: Sendable {
    public let settings: EndpointerSettings
    public private(set) var state: EndpointState = .waitingForSpeech
    /// Audio consumed, in ms.
    public private(set) var elapsedMs = 0
    /// Where speech started and last had voice, in ms from the start; nil before speech.
    public private(set) var speechStartMs: Int?
    public private(set) var lastVoiceMs: Int?

    private static let frameSamples = 160
    private static let onsetFrames = 3
    /// Voiced when this many dB above the noise floor.
    private static let marginDB = 10.0
    /// Never voiced below this level (dBFS): digital silence and a faint hiss.
    private static let absoluteMinimumDB = -50.0

    private var pending: [Int16] = []
    /// The tracked background level in dBFS.
    public private(set) var noiseFloorDB: Double?
    private var voicedRun = 0

    /// `noiseFloorDB` seeds the floor from audio heard before (the idle listener tracks it), so a
    /// command that is already under way when endpointing starts is still heard as speech.
    public init(settings: EndpointerSettings, noiseFloorDB: Double? = nil) {
        self.settings = settings
        self.noiseFloorDB = noiseFloorDB
        pending.reserveCapacity(Self.frameSamples)
    }

    /// Consumes samples; `commandLooksComplete` says whether the words so far already form a
    /// complete command, which allows the short trailing silence.
    @discardableResult
    public mutating func process(_ samples: some Collection<Int16>, commandLooksComplete: Bool = false) -> EndpointState {
        for sample in samples {
            if case .ended = state { return state }
            pending.append(sample)
            if pending.count == Self.frameSamples {
                processFrame(commandLooksComplete: commandLooksComplete)
                pending.removeAll(keepingCapacity: true)
            }
        }
        return state
    }

    /// Level of a frame in dBFS.
    static func level(of frame: [Int16]) -> Double {
        var sum = 0.0
        for sample in frame {
            let value = Double(sample)
            sum += value * value
        }
        let rms = (sum / Double(max(frame.count, 1))).squareRoot()
        return 20 * log10(max(rms, 1) / 32768)
    }

    private mutating func processFrame(commandLooksComplete: Bool) {
        elapsedMs += 10
        let level = Self.level(of: pending)
        let floor = noiseFloorDB ?? level
        let voiced = level > max(floor + Self.marginDB, Self.absoluteMinimumDB)
        // The floor follows quiet frames quickly and loud ones slowly, so speech does not raise it.
        noiseFloorDB = level < floor ? floor + (level - floor) * 0.3 : floor + (level - floor) * (voiced ? 0.002 : 0.05)

        voicedRun = voiced ? voicedRun + 1 : 0
        switch state {
        case .waitingForSpeech:
            if voicedRun >= Self.onsetFrames {
                state = .speaking
                speechStartMs = elapsedMs - Self.onsetFrames * 10
                lastVoiceMs = elapsedMs
            } else if elapsedMs >= settings.noSpeechTimeoutMs {
                state = .ended(.noSpeech)
            }
        case .speaking:
            if voiced { lastVoiceMs = elapsedMs }
            let silence = elapsedMs - (lastVoiceMs ?? elapsedMs)
            if elapsedMs - (speechStartMs ?? 0) >= settings.maxUtteranceMs {
                state = .ended(.maxLength)
            } else if commandLooksComplete, silence >= settings.shortSilenceMs {
                state = .ended(.completeCommand)
            } else if silence >= settings.endSilenceMs {
                state = .ended(.silence)
            }
        case .ended:
            break
        }
    }
}
