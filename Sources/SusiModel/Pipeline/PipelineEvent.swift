import Foundation
import SusiCore
import Synchronization

/// One event of the `--events` JSON Lines contract (the README, "Events").
///
/// Every event carries `wall_ms` (since the process started) and `audio_ms` (position in the
/// input audio when the event was decided); the payload fields depend on the kind.
public struct PipelineEvent: Sendable, Equatable {
    /// The event names and their payloads.
    public enum Kind: Sendable, Equatable {
        case ready
        case wake(phrase: String)
        case listening
        case speechEnd
        case transcript(text: String)
        /// `actionsJSON` is the JSON array of SUSI action objects as answered.
        case answer(query: String, actionsJSON: String, skill: String?)
        case speakStart(text: String)
        case speakEnd
        case play(type: String, identifier: String, identifierType: String)
        case player(command: String)
        case error(stage: Stage, code: String, message: String)
        case idle
    }

    public var kind: Kind
    public var wallMs: Int
    public var audioMs: Int

    public init(_ kind: Kind, wallMs: Int, audioMs: Int) {
        self.kind = kind
        self.wallMs = wallMs
        self.audioMs = audioMs
    }

    /// An `error` event from a stage error.
    public static func error(_ error: any SusiError, wallMs: Int, audioMs: Int) -> PipelineEvent {
        PipelineEvent(.error(stage: error.stage, code: error.code, message: error.message), wallMs: wallMs, audioMs: audioMs)
    }

    /// The contract's event name.
    public var name: String {
        switch kind {
        case .ready: return "ready"
        case .wake: return "wake"
        case .listening: return "listening"
        case .speechEnd: return "speech_end"
        case .transcript: return "transcript"
        case .answer: return "answer"
        case .speakStart: return "speak_start"
        case .speakEnd: return "speak_end"
        case .play: return "play"
        case .player: return "player"
        case .error: return "error"
        case .idle: return "idle"
        }
    }

    /// One line of JSON (no trailing newline), keys in a stable order.
    public var jsonLine: String {
        var fields: [(String, String)] = [
            ("event", Self.quote(name)), ("wall_ms", String(wallMs)), ("audio_ms", String(audioMs)),
        ]
        switch kind {
        case .ready, .listening, .speechEnd, .speakEnd, .idle: break
        case .wake(let phrase): fields.append(("phrase", Self.quote(phrase)))
        case .transcript(let text): fields.append(("text", Self.quote(text)))
        case .answer(let query, let actions, let skill):
            fields.append(("query", Self.quote(query)))
            fields.append(("actions", actions.isEmpty ? "[]" : actions))
            if let skill { fields.append(("skill", Self.quote(skill))) }
        case .speakStart(let text): fields.append(("text", Self.quote(text)))
        case .play(let type, let identifier, let identifierType):
            fields.append(("type", Self.quote(type)))
            fields.append(("identifier", Self.quote(identifier)))
            fields.append(("identifier_type", Self.quote(identifierType)))
        case .player(let command): fields.append(("command", Self.quote(command)))
        case .error(let stage, let code, let message):
            fields.append(("stage", Self.quote(stage.rawValue)))
            fields.append(("code", Self.quote(code)))
            fields.append(("message", Self.quote(message)))
        }
        return "{" + fields.map { "\(Self.quote($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
    }

    /// A JSON string literal.
    static func quote(_ text: String) -> String {
        "\"" + JSONValue.escape(text) + "\""
    }
}

/// Receives pipeline events as they happen. Implementations must be thread-safe.
public protocol EventSink: Sendable {
    func emit(_ event: PipelineEvent)
}

/// Writes events as JSON Lines to a file handle, one unbuffered write per line.
public final class JSONLinesEventSink: EventSink {
    /// Lines from several threads are written whole, one after the other.
    private let handle: Mutex<FileHandle>

    public init(handle: FileHandle) { self.handle = Mutex(handle) }

    public func emit(_ event: PipelineEvent) {
        // C1 and bidi controls as `\uXXXX` too: the same JSON, safe to `cat` or `tail -f`.
        let line = Data((ControlCharacters.escapedForJSON(event.jsonLine) + "\n").utf8)
        handle.withLock { $0.write(line) }
    }
}

/// Keeps events in memory; for tests and for `make demo`'s transcript.
public final class RecordingEventSink: EventSink {
    private let stored = Mutex<[PipelineEvent]>([])

    public init() {}

    public func emit(_ event: PipelineEvent) {
        stored.withLock { $0.append(event) }
    }

    /// Everything emitted so far, in order.
    public var events: [PipelineEvent] { stored.withLock { $0 } }
}
