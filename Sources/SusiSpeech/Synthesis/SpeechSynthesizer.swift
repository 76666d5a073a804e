import SusiCore

/// The role of a text-to-speech engine that streams audio while it synthesizes.
public protocol SpeechSynthesizer: Sendable {
    /// The format of every chunk delivered.
    var format: AudioFormat { get }

    /// Synthesizes `text`, handing each chunk to `onChunk` as soon as it is produced; return
    /// false from `onChunk` to stop (barge-in). Blocks until done or stopped: call it off
    /// the cooperative pool.
    func synthesize(
        _ text: String, voice: VoiceSettings, onChunk: (AudioChunk) -> Bool
    ) throws(SynthesisError) -> SynthesisEnd
}

extension SpeechSynthesizer {
    /// Synthesizes `text` into one chunk. Blocks: call it off the cooperative pool.
    public func synthesizeAll(_ text: String, voice: VoiceSettings) throws(SynthesisError) -> AudioChunk {
        var samples: [Int16] = []
        _ = try synthesize(text, voice: voice) { chunk in
            samples += chunk.samples
            return true
        }
        return AudioChunk(format: format, samples: samples)
    }
}
