import Foundation
import SusiModel

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
    /// Trailing silence that ends a command whose words so far are only a lead-in (the end
    /// of the wake word decoded alone: "in", "hey"): people pause 200-800 ms after the name.
    public var leadInSilenceMs = 1000

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

/// How finished the words heard so far sound; decides how much trailing silence ends them.
public enum CommandEnding: Sendable, Equatable {
    /// A skill matches them fully: a short silence is enough.
    case complete
    /// A skill matches the skills' reading fully, and the open-question model hears other
    /// words that no skill is sure of (often the first part of a longer question): a silence
    /// halfway between the short and the medium one.
    case disputed
    /// Neither matched nor obviously cut off: a medium silence.
    case undecided
    /// They stop on a word that needs more ("what is the", "play songs by"), or there are
    /// none yet: the full end silence.
    case unfinished
    /// Nothing but what the end of the wake word decodes to ("in", "hey"), or nothing: a
    /// pause after the name, which must not end the command (`leadInSilenceMs`).
    case leadIn

    /// Words after which a sentence is not over. Not "in", "on", "me" or "please", which
    /// end many whole commands ("what room are you in", "carry on", "tell me", "volume up
    /// please").
    static let openEndings: Set<String> = [
        "a", "an", "the", "my", "your", "his", "her", "our", "their", "this", "that", "these", "those", "some",
        "to", "for", "of", "at", "by", "with", "about", "from", "into", "and", "or", "but", "is", "are",
        "was", "be", "what", "whats", "what's", "who", "how", "when", "where", "which", "why", "can", "could",
        "would", "will", "set", "play", "tell", "turn", "change", "make", "give", "rate", "i",
    ]

    /// What the tail of "susi" decodes to when the command's recognition starts at the end of
    /// the wake word and the person pauses (measured: "in", "hey", "he", "see").
    static let leadInWords: Set<String> = [
        "in", "hey", "hi", "he", "see", "sea", "she", "zoo", "sue", "so", "uh", "um", "oh", "eh", "a", "and", "the", "it",
    ]

    /// Whether `words` are only a lead-in: empty, or lead-in words alone.
    public static func isLeadIn(_ words: String) -> Bool {
        words.lowercased().split(separator: " ").allSatisfy { leadInWords.contains(String($0)) }
    }

    /// The ending of `words` given whether a skill matches them fully; `.leadIn` for nothing
    /// but a lead-in when `atStart` (no longer command heard before).
    public static func of(_ words: String, matchesSkill: Bool, atStart: Bool) -> CommandEnding {
        if atStart, isLeadIn(words) { return .leadIn }
        return of(words, matchesSkill: matchesSkill)
    }

    /// The ending of `words` given whether a skill matches them fully.
    public static func of(_ words: String, matchesSkill: Bool) -> CommandEnding {
        let last = words.lowercased().split(separator: " ").last.map(String.init)
        guard let last, !openEndings.contains(last) else { return .unfinished }
        return matchesSkill ? .complete : .undecided
    }
}

/// Why a command ended.
public enum EndReason: String, Sendable, Equatable {
    /// Trailing silence of `endSilenceMs`.
    case silence
    /// A shorter trailing silence after words that sound complete.
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

/// Decides when a command has ended, from voice activity in 16 kHz mono audio fed in any
/// chunk size.
///
/// Speech starts after a few voiced 10 ms frames in a row (`VoiceActivityDetector`); it ends
/// after the configured trailing silence. Value type, no I/O: feed it from one thread.
public struct Endpointer: Sendable {
    public let settings: EndpointerSettings
    public private(set) var state: EndpointState = .waitingForSpeech
    /// Audio consumed, in ms.
    public private(set) var elapsedMs = 0
    /// Where speech started and last had voice, in ms from the start; nil before speech.
    public private(set) var speechStartMs: Int?
    public private(set) var lastVoiceMs: Int?

    private static let onsetFrames = 3
    /// Margin over the noise floor that starts speech, and that keeps it going (dB).
    static let onsetMarginDB = 10.0
    static let speakingMarginDB = 6.0
    private var activity: VoiceActivityDetector
    private var voicedRun = 0

    /// How long it has been silent since speech last had voice, in ms; 0 before speech, while
    /// voiced, and once ended.
    public var trailingSilenceMs: Int {
        guard state == .speaking, let lastVoiceMs else { return 0 }
        return elapsedMs - lastVoiceMs
    }

    /// How long the speech has lasted up to its last voiced frame, in ms; 0 before speech.
    public var speechMs: Int {
        guard let speechStartMs, let lastVoiceMs else { return 0 }
        return lastVoiceMs - speechStartMs
    }

    /// The tracked background level in dBFS.
    public var noiseFloorDB: Double? { activity.noiseFloorDB }

    /// `noiseFloorDB` seeds the floor from audio heard before (the idle listener tracks it), so a
    /// command that is already under way when endpointing starts is still heard as speech.
    public init(settings: EndpointerSettings, noiseFloorDB: Double? = nil) {
        self.settings = settings
        activity = VoiceActivityDetector(noiseFloorDB: noiseFloorDB, marginDB: Self.onsetMarginDB)
    }

    /// Consumes samples; `ending` says how finished the words so far sound: complete ones end
    /// after `shortSilenceMs`, undecided ones halfway to `endSilenceMs`, unfinished ones after
    /// `endSilenceMs`.
    @discardableResult
    public mutating func process(_ samples: some Collection<Int16>, ending: CommandEnding = .unfinished) -> EndpointState {
        var detector = activity
        detector.process(samples) { voiced in
            if case .ended = state { return }
            step(voiced: voiced, ending: ending)
        }
        // Once speech has begun (from the next chunk on), quieter frames still count as
        // speech: in noise, soft sounds inside a command ("to", the "f" of "fifty") sit only a
        // few dB above the floor, and taking them for silence cut commands short.
        if state == .speaking { detector.marginDB = Self.speakingMarginDB }
        activity = detector
        return state
    }

    /// The trailing silence that ends words with `ending`.
    public func silenceMs(for ending: CommandEnding) -> Int {
        switch ending {
        case .complete: return settings.shortSilenceMs
        case .disputed: return (3 * settings.shortSilenceMs + settings.endSilenceMs) / 4
        case .undecided: return (settings.shortSilenceMs + settings.endSilenceMs) / 2
        case .unfinished: return settings.endSilenceMs
        case .leadIn: return max(settings.endSilenceMs, settings.leadInSilenceMs)
        }
    }

    private mutating func step(voiced: Bool, ending: CommandEnding) {
        elapsedMs += 10
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
            let silence = trailingSilenceMs
            if elapsedMs - (speechStartMs ?? 0) >= settings.maxUtteranceMs {
                state = .ended(.maxLength)
            } else if silence >= silenceMs(for: ending) {
                state = .ended(ending == .unfinished || ending == .leadIn ? .silence : .completeCommand)
            }
        case .ended:
            break
        }
    }
}
