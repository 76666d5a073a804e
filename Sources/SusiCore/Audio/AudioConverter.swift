/// Converts a stream of `AudioChunk`s to another rate and channel count, by default to the
/// 16 kHz mono int16 the recogniser and wake word consume.
///
/// Channels are mixed down by averaging (or, when the source and target channel counts are
/// equal, each channel is resampled on its own); a mono source is copied to every target
/// channel. Rates are changed by the `SampleRateConverter`s the caller's maker gives (SusiAudio
/// adds `init(from:to:)` and `convert(_:to:)` with its speex resampler), whose state carries
/// across chunks, so converting a stream chunk by chunk and then calling `flush()` gives exactly
/// the samples that converting it in one piece does. Identical formats pass through untouched.
///
/// The resamplers are reference types: copies of a converter share them, so keep one converter
/// per stream.
public struct AudioConverter {
    /// The format every input chunk must have.
    public let source: AudioFormat
    /// The format of every output chunk.
    public let target: AudioFormat

    /// One resampler per channel that is resampled: all of them, or just the mixed-down one.
    /// Empty when the rates are equal.
    private var resamplers: [any SampleRateConverter]
    /// How many channels are worked on: the source's, or one when mixing down.
    private let working: Int

    /// Creates a converter from `source` to `target`, resampling with converters from
    /// `resampler`; without one, only the channel count may change.
    ///
    /// - Throws: `audio-invalid-format` when either format has a non-positive rate or channel
    ///   count, or the rates differ and there is no `resampler`.
    public init(
        from source: AudioFormat, to target: AudioFormat = .speech, resampler: SampleRateConverterMaker? = nil
    ) throws(AudioError) {
        try source.validate()
        try target.validate()
        self.source = source
        self.target = target
        working = source.channels == target.channels ? source.channels : 1
        var resamplers: [any SampleRateConverter] = []
        if source.sampleRate != target.sampleRate {
            guard let resampler else {
                throw AudioError(
                    .invalidFormat, "changing \(source.sampleRate) Hz to \(target.sampleRate) Hz needs a resampler")
            }
            for _ in 0..<working {
                resamplers.append(try resampler(source.sampleRate, target.sampleRate))
            }
        }
        self.resamplers = resamplers
    }

    /// Converts the next chunk of the stream.
    ///
    /// When resampling, the filter holds back the last few dozen output samples until enough
    /// later input arrives, so a chunk's output can be slightly shorter than the rate ratio
    /// says; `flush()` returns the rest at the end of the stream. Output is not delayed in time:
    /// output sample `n` is the input at time `n / target.sampleRate`.
    ///
    /// - Throws: `audio-format-mismatch` when `chunk.format` is not `source`,
    ///   `audio-invalid-format` for a partial frame.
    public mutating func convert(_ chunk: AudioChunk) throws(AudioError) -> AudioChunk {
        guard chunk.format == source else {
            throw AudioError(.formatMismatch, "converter for \(source) was given a chunk in \(chunk.format)")
        }
        try chunk.validate()
        if source == target { return chunk }
        let channels = split(chunk.samples)
        var outputs: [[Float]] = []
        outputs.reserveCapacity(channels.count)
        for index in channels.indices {
            outputs.append(resamplers.isEmpty ? channels[index] : resamplers[index].process(channels[index]))
        }
        return AudioChunk(format: target, samples: interleave(outputs))
    }

    /// Returns the samples the resampling filter still holds, and readies the converter for a
    /// new stream.
    public mutating func flush() -> AudioChunk {
        guard source != target else { return AudioChunk(format: target, samples: []) }
        var outputs: [[Float]] = []
        for index in resamplers.indices {
            outputs.append(resamplers[index].flush())
        }
        return AudioChunk(format: target, samples: interleave(outputs))
    }

    /// Converts a whole recording in one call, resampling with converters from `resampler`.
    public static func convert(
        _ chunk: AudioChunk, to target: AudioFormat = .speech, resampler: SampleRateConverterMaker? = nil
    ) throws(AudioError) -> AudioChunk {
        var converter = try AudioConverter(from: chunk.format, to: target, resampler: resampler)
        var result = try converter.convert(chunk)
        result.samples.append(contentsOf: converter.flush().samples)
        return result
    }

    /// De-interleaves into the working channels, averaging when mixing down.
    private func split(_ samples: [Int16]) -> [[Float]] {
        let frames = samples.count / source.channels
        if working == source.channels {
            return (0..<source.channels).map { channel in
                (0..<frames).map { Float(samples[$0 * source.channels + channel]) }
            }
        }
        let scale = 1 / Float(source.channels)
        var mono = [Float](repeating: 0, count: frames)
        samples.withUnsafeBufferPointer { input in
            for frame in 0..<frames {
                var sum: Int = 0
                for channel in 0..<source.channels {
                    sum += Int(input[frame * source.channels + channel])
                }
                mono[frame] = Float(sum) * scale
            }
        }
        return [mono]
    }

    /// Interleaves the working channels into the target layout, copying mono to every channel.
    private func interleave(_ channels: [[Float]]) -> [Int16] {
        let frames = channels.map(\.count).min() ?? 0
        var samples: [Int16] = []
        samples.reserveCapacity(frames * target.channels)
        for frame in 0..<frames {
            for channel in 0..<target.channels {
                let source = channels.count == 1 ? channels[0] : channels[channel]
                samples.append(AudioConverter.int16(source[frame]))
            }
        }
        return samples
    }

    /// Rounds to the nearest int16, clamping the overshoot a steep filter adds to full-scale input.
    static func int16(_ value: Float) -> Int16 {
        Int16(min(max(value.rounded(), -32768), 32767))
    }
}
