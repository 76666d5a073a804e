import CSpeexDSP

/// speexdsp's preprocessor in front of a recogniser or wake detector: spectral noise
/// suppression and, optionally, automatic gain control; the only Swift file that calls
/// speexdsp.
///
/// Works on 16 kHz mono frames of `frameLength` samples (20 ms); `process` buffers any
/// remainder, so the output lags the input by less than one frame. Not thread-safe: one
/// thread at a time. The C state is freed in `deinit`.
public final class SpeexPreprocessor: SamplePreprocessor {
    /// What the preprocessor does.
    public struct Settings: Sendable, Equatable {
        /// Whether noise is suppressed.
        public var denoise: Bool
        /// Most attenuation of noise, in dB (negative; speexdsp's default is -15).
        public var noiseSuppressionDecibels: Int
        /// Whether automatic gain control levels the input.
        public var automaticGain: Bool
        /// The level AGC aims for, as a sample magnitude (speexdsp's default is 8000).
        public var gainTarget: Int

        /// Creates settings; the defaults are denoising at -15 dB without AGC.
        public init(
            denoise: Bool = true, noiseSuppressionDecibels: Int = -15, automaticGain: Bool = false, gainTarget: Int = 8000
        ) {
            self.denoise = denoise
            self.noiseSuppressionDecibels = noiseSuppressionDecibels
            self.automaticGain = automaticGain
            self.gainTarget = gainTarget
        }
    }

    /// Samples per processed frame: 20 ms at 16 kHz.
    public let frameLength = 320
    /// The settings in force.
    public let settings: Settings
    private let state: OpaquePointer
    private var pending: [Int16] = []

    /// Creates a preprocessor for 16 kHz audio.
    ///
    /// - Throws: `stt-init-failed` when speexdsp cannot create its state.
    public init(settings: Settings = Settings()) throws(SpeechError) {
        guard let created = speex_preprocess_state_init(Int32(frameLength), 16_000) else {
            throw SpeechError(.initFailed, "speexdsp could not create a preprocessor")
        }
        state = created
        self.settings = settings
        _ = susi_speex_set_int(state, SPEEX_PREPROCESS_SET_DENOISE, settings.denoise ? 1 : 0)
        _ = susi_speex_set_int(state, SPEEX_PREPROCESS_SET_NOISE_SUPPRESS, Int32(settings.noiseSuppressionDecibels))
        _ = susi_speex_set_int(state, SPEEX_PREPROCESS_SET_AGC, settings.automaticGain ? 1 : 0)
        if settings.automaticGain {
            _ = susi_speex_set_float(state, SPEEX_PREPROCESS_SET_AGC_LEVEL, Float(settings.gainTarget))
        }
        // The recogniser has its own voice activity detection; speexdsp's would only gate audio.
        _ = susi_speex_set_int(state, SPEEX_PREPROCESS_SET_VAD, 0)
        _ = susi_speex_set_int(state, SPEEX_PREPROCESS_SET_DEREVERB, 0)
    }

    deinit {
        speex_preprocess_state_destroy(state)
    }

    /// Cleans the next samples; returns the whole frames processed so far (a multiple of
    /// `frameLength` samples), keeping the rest for the next call.
    public func process(_ samples: [Int16]) -> [Int16] {
        pending += samples
        let whole = pending.count / frameLength * frameLength
        guard whole > 0 else { return [] }
        var output = Array(pending[0..<whole])
        pending.removeFirst(whole)
        output.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for offset in stride(from: 0, to: whole, by: frameLength) {
                _ = speex_preprocess_run(state, base + offset)
            }
        }
        return output
    }

    /// The buffered remainder (less than a frame), unprocessed; the buffer is emptied.
    public func flush() -> [Int16] {
        defer { pending.removeAll() }
        return pending
    }
}
