/// How a synthesis ended.
public enum SynthesisEnd: Sendable, Equatable {
    /// All of the text was spoken.
    case finished
    /// The caller stopped it (barge-in) before the end.
    case stopped
}
