/// Changes the sample rate of one channel's stream of float samples. SusiCore imports no C, so
/// it has none of its own: SusiAudio's `SpeexResampler` is the one the speaker uses.
///
/// Output is not delayed: output sample `n` is the input at time `n / outputRate`. State
/// carries across `process` calls, so splitting the input into chunks changes neither the result
/// nor its length. An instance serves one stream from one thread at a time.
public protocol SampleRateConverter: AnyObject {
    /// Converts the next run of input samples, returning every output sample it completes.
    func process(_ input: [Float]) -> [Float]
    /// Returns the output still held back by the filter, as if the input ended in silence, and
    /// starts over for an unrelated stream. The total output is then
    /// `ceil(inputCount * outputRate / inputRate)` samples.
    func flush() -> [Float]
}

/// Makes a `SampleRateConverter` from an input rate to an output rate (Hz); throws
/// `audio-invalid-format` for rates it cannot take.
public typealias SampleRateConverterMaker = (_ inputRate: Int, _ outputRate: Int) throws(AudioError) -> any SampleRateConverter
