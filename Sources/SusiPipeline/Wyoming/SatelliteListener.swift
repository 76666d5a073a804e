import SusiCore
import SusiModel

/// The satellite's ears: listens for the wake word in the microphone's audio and, once it is
/// heard, streams the command to Home Assistant until the command ends.
///
/// Heard, it returns `detection`, `run-pipeline` (from speech recognition, `asr`, to `tts` when
/// the speaker plays answers, else `handle`) and `audio-start`, then the audio from the end of
/// the name (so "susi what time is it" said in one breath keeps its first word) as
/// `audio-chunk`s. The command ends with `audio-stop` after `endpointing`'s silence following
/// speech, when nobody speaks within its no-speech timeout, at its longest command, or when
/// `stop` is called (Home Assistant sent its transcript, an error, or paused the satellite).
/// Then it listens for the name again. Used from the microphone's thread.
public struct SatelliteListener {
    /// Milliseconds of input kept for the stream's start: the decision comes up to a few
    /// hundred ms after the name ended.
    static let historyMs = 2_000

    private let endpointing: EndpointerSettings
    /// `run-pipeline`'s fields: to `tts` when the speaker plays answers, with the format they
    /// play in (`snd_format`, which earlier versions of the protocol carry here), else to `handle`.
    private let pipeline: [String: JSONValue]
    private var history = AudioHistory(capacity: SamplePosition.format.frames(milliseconds: historyMs))
    /// The detector, fed around voice activity and placing the name's end, as `susi run` does.
    private var gate: WakeGate
    private var command: Command?

    /// What is known of the command being streamed.
    private struct Command {
        var activity: VoiceActivityDetector
        var started: SamplePosition
        var voicedFrames = 0
        var silentFrames = 0

        /// Whether the command has begun: more voice than the name's last sound leaves at
        /// the stream's start, so a pause after the name does not end it.
        var heardSpeech: Bool { voicedFrames * SatelliteListener.frameMs >= SatelliteListener.speechMs }
    }

    /// Voiced audio that makes a command begun.
    static let speechMs = 200
    static let frameMs = SamplePosition.format.milliseconds(frames: VoiceActivityDetector.frameSamples)

    /// A listener waking on `detector`, ending commands as `endpointing` says; `playsAnswers`
    /// asks Home Assistant for spoken answers (`end_stage` `tts`).
    public init(detector: any WakeWordDetector, endpointing: EndpointerSettings, playsAnswers: Bool) {
        gate = WakeGate(detector: detector)
        self.endpointing = endpointing
        var pipeline: [String: JSONValue] = ["start_stage": "asr", "end_stage": "handle", "restart_on_end": false]
        if playsAnswers {
            pipeline["end_stage"] = "tts"
            pipeline["snd_format"] = SatelliteInfo.soundFormatFields
        }
        self.pipeline = pipeline
    }

    /// Whether a command is being streamed.
    public var isStreaming: Bool { command != nil }

    /// Milliseconds of input heard so far: the timestamps of the events.
    public var positionMs: Int { history.end.milliseconds }

    /// How much input to read next, in ms: 80 ms chunks of a command; while waiting for the
    /// name, up to where the detector can next decide, as `susi run` reads
    /// (`WakeGate.nextReadMilliseconds`), so a wake is not held up by the rest of a read.
    public var nextReadMilliseconds: Int {
        command != nil
            ? Self.streamReadMs
            : gate.nextReadMilliseconds(otherwise: VoicePipeline.idleReadMs, longest: VoicePipeline.longestIdleReadMs)
    }

    /// Milliseconds of a command per `audio-chunk`.
    static let streamReadMs = 80

    /// Consumes the next 16 kHz mono samples and returns the events to send, in order.
    ///
    /// - Throws: what the wake word detector throws.
    public mutating func hear(_ samples: [Int16]) throws -> [WyomingEvent] {
        history.append(samples)
        guard command == nil else { return follow(samples) }
        guard let heard = try gate.hear(samples, in: history) else { return [] }
        let start = min(max(heard.end, history.end.advanced(by: -history.capacity)), history.end)
        command = Command(activity: VoiceActivityDetector(noiseFloorDB: gate.noiseFloorDB), started: start)
        let now = history.end.milliseconds
        var events = [
            WyomingEvent(
                type: "detection", data: ["name": .string(heard.phrase), "timestamp": .number(Double(now))]),
            WyomingEvent(
                type: "run-pipeline", data: pipeline),
            WyomingEvent.audioStart(WyomingEvent.AudioShape(.speech), timestamp: start.milliseconds),
        ]
        events += follow(history.samples(from: start))
        return events
    }

    /// Ends the command being streamed: `audio-stop` when `announce` (the satellite decided),
    /// nothing when Home Assistant ended it. The detector starts afresh either way.
    public mutating func stop(announce: Bool) -> [WyomingEvent] {
        guard command != nil else { return [] }
        command = nil
        gate.restart(at: history.end, interactionEnd: history.end)
        return announce ? [WyomingEvent.audioStop(timestamp: history.end.milliseconds)] : []
    }

    /// Streams `samples` of the command and ends it when its time has come.
    private mutating func follow(_ samples: [Int16]) -> [WyomingEvent] {
        guard var current = command, !samples.isEmpty else { return [] }
        let chunkStart = history.end.advanced(by: -samples.count)
        var events = [WyomingEvent.audioChunk(AudioChunk(format: .speech, samples: samples), timestamp: chunkStart.milliseconds)]
        current.activity.process(samples) { voiced in
            current.voicedFrames += voiced ? 1 : 0
            current.silentFrames = voiced ? 0 : current.silentFrames + 1
        }
        command = current
        let elapsed = history.end.frames(since: current.started)
        let ended =
            (current.heardSpeech && current.silentFrames * Self.frameMs >= endpointing.endSilenceMs)
            || (!current.heardSpeech && elapsed >= SamplePosition.format.frames(milliseconds: endpointing.noSpeechTimeoutMs))
            || elapsed >= SamplePosition.format.frames(milliseconds: endpointing.maxUtteranceMs)
        if ended { events += stop(announce: true) }
        return events
    }
}
