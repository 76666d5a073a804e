/// A point in the pipeline's input, counted in frames of `AudioFormat.speech` since the input
/// began: every chunk is converted to that format before it is counted, whatever format it
/// arrived in.
public struct SamplePosition: Sendable, Hashable, Comparable {
    /// The format positions count in (16 kHz mono: what the wake detector and recogniser hear).
    public static let format = AudioFormat.speech
    /// The beginning of the input.
    public static let start = SamplePosition(frames: 0)

    /// Frames since the input began.
    public var frames: Int

    /// The position `frames` frames into the input.
    public init(frames: Int) {
        self.frames = frames
    }

    /// The position `milliseconds` ms into the input.
    public init(milliseconds: Int) {
        frames = Self.format.frames(milliseconds: milliseconds)
    }

    /// Milliseconds since the input began (rounded down): the events' `audio_ms`.
    public var milliseconds: Int { Self.format.milliseconds(frames: frames) }

    /// The position `frames` frames later (earlier when negative).
    public func advanced(by frames: Int) -> SamplePosition {
        SamplePosition(frames: self.frames + frames)
    }

    /// The position `milliseconds` ms later (earlier when negative).
    public func advanced(byMilliseconds milliseconds: Int) -> SamplePosition {
        advanced(by: Self.format.frames(milliseconds: milliseconds))
    }

    /// Frames from `earlier` to `self`.
    public func frames(since earlier: SamplePosition) -> Int { frames - earlier.frames }

    public static func < (lhs: SamplePosition, rhs: SamplePosition) -> Bool { lhs.frames < rhs.frames }
}

/// The pipeline's one record of recent input, in `SamplePosition.format`, placed by position.
///
/// The wake word's lead-in, the start of a command said in one breath with the wake word, and
/// a command's whole audio for the open-question pass all come from here. Keeps at least
/// `capacity` frames; value type, used from the pipeline's thread.
struct AudioHistory {
    /// Frames kept at least.
    let capacity: Int
    private var buffer: [Int16] = []
    /// Where `buffer[0]` is.
    private var first = SamplePosition.start

    init(capacity: Int) {
        self.capacity = capacity
        buffer.reserveCapacity(capacity * 2)
    }

    /// Where the input heard so far ends: the position of the next frame to arrive.
    var end: SamplePosition { first.advanced(by: buffer.count) }

    /// Adds the next frames of the input (mono, `SamplePosition.format`).
    mutating func append(_ samples: [Int16]) {
        buffer.append(contentsOf: samples)
        // Trimmed only once twice the capacity is held, so each frame is moved about once.
        if buffer.count > capacity * 2 {
            let drop = buffer.count - capacity
            buffer.removeFirst(drop)
            first = first.advanced(by: drop)
        }
    }

    /// The frames from `position` to `end` (the end of the input when nil), clamped to what
    /// is kept.
    func samples(from position: SamplePosition, to end: SamplePosition? = nil) -> [Int16] {
        let lower = max(0, min(position.frames(since: first), buffer.count))
        let upper = end.map { max(lower, min($0.frames(since: first), buffer.count)) } ?? buffer.count
        return Array(buffer[lower..<upper])
    }
}
