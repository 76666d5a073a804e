import SusiAudio
import SusiCore
import SusiModel
import SusiSpeech

extension SpeechOutput {
    /// `susi say`: speaks `text` with the voice of `config` (or `voiceName`, an id or an accent,
    /// with no variant unless `variant` is given) on `audio.output`, or into a 16-bit WAV at
    /// `output`.
    /// - Returns: the milliseconds written to `output`; nil when spoken to the device.
    /// - Throws: `SynthesisError` for an unknown voice, before any output is opened (so a bad
    ///   voice leaves no file behind), and the device's or the file's failures.
    @discardableResult
    public static func say(_ text: String, config: Config, voiceName: String?, variant: String?, output: String?, logger: Logger)
        throws -> Int?
    {
        var voice = Assembly.voice(config)
        if let voiceName {
            voice.name = voiceName
            voice.variant = ""
        }
        if let variant { voice.variant = variant }
        let engine = try ESpeakEngine.shared()
        _ = try engine.espeakVoiceName(for: voice)
        let (sink, file) = try Assembly.speechSink(
            path: output, device: config.audio.output, sampleRate: engine.format.sampleRate, logger: logger)
        try speak(text, voice: voice, engine: engine, into: sink)
        guard let file else { return nil }
        try file.close()
        return file.framesWritten * 1000 / WAVFileSink.format.sampleRate
    }
}
