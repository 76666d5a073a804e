import SusiCore

/// A failure of the Wyoming satellite (`susi satellite serve`): a malformed event from the
/// network, or a stream that cannot be played. Reported, never fatal: the connection that sent
/// it is closed, or the event is dropped.
public typealias WyomingError = StageError<WyomingErrorKind>

/// The machine-readable reason; its raw value is the stable `code`.
public enum WyomingErrorKind: String, StageErrorKind, CaseIterable {
    /// A header line that is not a JSON object with a string `type`, or data that is not a
    /// JSON object, or a length that is not a whole number.
    case badEvent = "satellite-bad-event"
    /// A header line, extra data or payload longer than `WyomingDecoder.Limits` allow.
    case eventTooLarge = "satellite-event-too-large"
    /// Audio in a format the speaker does not play (not 16-bit, odd rate or channels).
    case badAudio = "satellite-bad-audio"
    /// The listening socket cannot be opened (address in use, not an address of this host).
    case cannotListen = "satellite-cannot-listen"

    public var stage: Stage { .server }
}
