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
