/// The pipeline stage a failure belongs to, as named in the `error` event's `stage` field.
public enum Stage: String, Sendable, Codable, CaseIterable {
    case audio, wake, stt, brain, tts, player, config, server
}

/// A failure the outside world may cause: a stable machine code plus a human message.
///
/// Each stage has its own concrete error type conforming to this protocol. `code` is a
/// stable kebab-case string (`brain-timeout`, `audio-no-device`, ...) that tests and the
/// `error` event rely on; `message` is one line for a person.
public protocol SusiError: Error, CustomStringConvertible, Sendable {
    /// The stage that failed.
    var stage: Stage { get }
    /// Stable kebab-case machine code.
    var code: String { get }
    /// One human-readable line, naming what and where.
    var message: String { get }
}

extension SusiError {
    public var description: String { message }
}
