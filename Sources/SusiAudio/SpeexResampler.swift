import CSpeexDSP
import SusiCore

/// Streaming sample-rate converter for one channel of float samples: the speex resampler from
/// Debian's libspeexdsp; the only Swift file that calls it.
///
/// At the default quality (speex's "desktop" 5) tones that would alias come out more than 60 dB
/// down and the speech band is flat (the converter tests check both at 8 to 96 kHz); one minute
/// of 48 kHz input takes about 28 ms here, 44.1 kHz about 175 ms. The filter's delay is taken out
/// (`speex_resampler_skip_zeros`), so output sample `n` is the input at time
/// `n / outputRate`; state carries across `process` calls, so splitting the input into chunks
/// changes neither the result nor its length, and chunk boundaries cannot click. Call `flush()`
/// at the end to get the samples still held back by the filter.
///
/// A reference type owning a C handle: use one per stream, from one thread at a time.
public final class SpeexResampler: SampleRateConverter {
    /// Input rate in Hz.
    public let inputRate: Int
    /// Output rate in Hz.
    public let outputRate: Int

    /// nil when the rates are equal: samples then pass through untouched.
    private let state: OpaquePointer?
    /// Input samples the filter holds back: `flush` feeds this many zeros to push them out.
    private let latency: Int
    /// Input samples received since the stream began.
    private var inputCount = 0
    /// Output samples returned since the stream began.
    private var outputCount = 0

    /// Creates a converter from `inputRate` to `outputRate` (both in Hz, positive).
    ///
    /// - Parameter quality: speex's 0 (fast) to 10 (best).
    /// - Throws: `audio-invalid-format` for a rate speex cannot take.
    public init(inputRate: Int, outputRate: Int, quality: Int32 = SPEEX_RESAMPLER_QUALITY_DESKTOP) throws(AudioError) {
        guard inputRate > 0, outputRate > 0, inputRate <= Int(UInt32.max), outputRate <= Int(UInt32.max) else {
            throw AudioError(.invalidFormat, "cannot resample from \(inputRate) Hz to \(outputRate) Hz")
        }
        self.inputRate = inputRate
        self.outputRate = outputRate
        guard inputRate != outputRate else {
            state = nil
            latency = 0
            return
        }
        var error: Int32 = 0
        guard let state = speex_resampler_init(1, UInt32(inputRate), UInt32(outputRate), quality, &error) else {
            throw AudioError(.invalidFormat, "speex cannot resample from \(inputRate) Hz to \(outputRate) Hz (error \(error))")
        }
        self.state = state
        latency = Int(speex_resampler_get_input_latency(state))
        speex_resampler_skip_zeros(state)
    }

    deinit {
        if let state { speex_resampler_destroy(state) }
    }

    /// A `SampleRateConverterMaker` for `AudioConverter`.
    public static func make(inputRate: Int, outputRate: Int) throws(AudioError) -> any SampleRateConverter {
        try SpeexResampler(inputRate: inputRate, outputRate: outputRate)
    }

    /// Whether the rates are equal, so samples pass through untouched.
    public var isIdentity: Bool { state == nil }

    /// Converts the next run of input samples, returning every output sample it completes.
    public func process(_ input: [Float]) -> [Float] {
        inputCount += input.count
        guard let state else { return input }
        let output = Self.run(state, input, capacity: input.count * outputRate / inputRate + 2)
        outputCount += output.count
        return output
    }

    /// Returns the output still held back by the filter, as if the input ended in silence.
    ///
    /// After `flush()` the total output is `ceil(inputCount * outputRate / inputRate)` samples.
    /// The resampler then starts over, ready for an unrelated stream.
    public func flush() -> [Float] {
        defer { reset() }
        guard let state else { return [] }
        let total = (inputCount * outputRate + inputRate - 1) / inputRate
        let silence = [Float](repeating: 0, count: latency + 1)
        var output = Self.run(state, silence, capacity: silence.count * outputRate / inputRate + 2)
        // The silence can complete a few outputs past the true end.
        output.removeLast(min(max(outputCount + output.count - total, 0), output.count))
        return output
    }

    /// Forgets all state, as if newly created.
    public func reset() {
        inputCount = 0
        outputCount = 0
        guard let state else { return }
        speex_resampler_reset_mem(state)
        speex_resampler_skip_zeros(state)
    }

    /// Feeds all of `input` through the filter; speex stops when `output` is full, so it is
    /// called again until every input sample is taken.
    private static func run(_ state: OpaquePointer, _ input: [Float], capacity: Int) -> [Float] {
        var output: [Float] = []
        var chunk = [Float](repeating: 0, count: max(capacity, 64))
        var offset = 0
        while offset < input.count {
            var taken = UInt32(input.count - offset)
            var produced = UInt32(chunk.count)
            input.withUnsafeBufferPointer { source in
                chunk.withUnsafeMutableBufferPointer { target in
                    _ = speex_resampler_process_float(
                        state, 0, source.baseAddress.map { $0 + offset }, &taken, target.baseAddress, &produced)
                }
            }
            output.append(contentsOf: chunk[0..<Int(produced)])
            // No progress at all would loop forever; speex always takes input when it has room.
            guard taken > 0 || produced > 0 else { break }
            offset += Int(taken)
        }
        return output
    }
}

extension AudioConverter {
    /// A converter from `source` to `target` that resamples with `SpeexResampler`.
    ///
    /// - Throws: `audio-invalid-format` when either format has a non-positive rate or channel count.
    public init(from source: AudioFormat, to target: AudioFormat = .speech) throws(AudioError) {
        try self.init(from: source, to: target, resampler: SpeexResampler.make)
    }

    /// Converts a whole recording in one call, resampling with `SpeexResampler`.
    public static func convert(_ chunk: AudioChunk, to target: AudioFormat = .speech) throws(AudioError) -> AudioChunk {
        try convert(chunk, to: target, resampler: SpeexResampler.make)
    }
}
