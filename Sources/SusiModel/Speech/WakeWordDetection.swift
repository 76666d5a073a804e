/// One spotted wake phrase, placed in the audio stream the detector was fed.
///
/// Positions are milliseconds of audio since the detector was created.
public struct WakeWordDetection: Sendable, Equatable {
    /// The configured phrase that was heard (not the pronunciation variant).
    public var phrase: String
    /// Where the phrase began.
    public var startMilliseconds: Int
    /// Where the phrase ended: what follows it (the command) starts here.
    public var endMilliseconds: Int
    /// How much audio had been fed when the detection was decided; a little after the end,
    /// because the detector waits a few frames for the best score.
    public var decidedAtMilliseconds: Int

    /// Creates a detection.
    public init(phrase: String, startMilliseconds: Int, endMilliseconds: Int, decidedAtMilliseconds: Int) {
        self.phrase = phrase
        self.startMilliseconds = startMilliseconds
        self.endMilliseconds = endMilliseconds
        self.decidedAtMilliseconds = decidedAtMilliseconds
    }
}
