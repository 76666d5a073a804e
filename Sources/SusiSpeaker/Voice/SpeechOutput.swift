import SusiModel
import SusiSpeech

/// Speaking one text into a sound device or file, outside the voice pipeline (`susi say`,
/// the control API's `/say` in `susi setup serve`).
public enum SpeechOutput {
    /// Speaks `text` into `sink` chunk by chunk while `go()` holds; waits until the sound has
    /// played when it was said to the end, and cuts the sink short when it was not.
    ///
    /// - Returns: whether the text was said to the end.
    /// - Throws: the synthesiser's or the sink's failure (the sink is cut short first).
    @discardableResult
    public static func speak(
        _ text: String, voice: VoiceSettings, engine: ESpeakEngine, into sink: any AudioSink, while go: () -> Bool = { true }
    ) throws -> Bool {
        var failure: (any Error)?
        let end = try engine.synthesize(text, voice: voice) { chunk in
            guard go() else { return false }
            do {
                try sink.play(chunk)
            } catch {
                failure = error
                return false
            }
            return go()
        }
        if let failure {
            sink.interrupt()
            throw failure
        }
        guard end != .stopped, go() else {
            sink.interrupt()
            return false
        }
        try sink.drain()
        return true
    }
}
