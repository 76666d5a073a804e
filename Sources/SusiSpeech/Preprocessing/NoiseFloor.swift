import Foundation

/// Keeps a faint noise floor under the audio: where the input is much cleaner than
/// `signalToNoiseDecibels` below its loudest recent speech (digital silence, studio-clean or
/// synthesized speech), noise is added up to that level; noisier input passes unchanged.
/// Where the quiet between words is (nearly) digital silence, which no microphone gives, the
/// noise is brown, as a room's is; where some noise is already there, white noise tops it up.
///
/// PocketSphinx's en-us model was trained on recordings that always carry some noise; on
/// very clean input its noise tracking and the spectral detail outside the speech bands
/// misled it (dev corpus, clean condition: 42% command word errors without the floor, 11%
/// with a floor 25 dB under the speech; bench/RESULTS.md). Deterministic (a fixed seed);
/// not thread-safe.
public final class NoiseFloor: SamplePreprocessor {
    /// How far under the recent speech peak the floor sits, in dB.
    public let signalToNoiseDecibels: Double
    /// Frame RMS of the loudest recent speech; decays slowly so a quieter talker is followed.
    private var speechLevel: Double
    /// Frame RMS of the quietest recent audio; rises slowly so a new noise is followed.
    private var noiseLevel: Double?
    private var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    private let frameLength = 160
    /// The brown noise's last value: white noise summed with a leak (about 50 Hz and under).
    private var brown = 0.0
    /// Frame RMS under which the input counts as digital silence (-70 dBFS).
    static let digitalSilenceLevel = 10.0

    /// Starts assuming speech peaks at `initialSpeechLevel` (frame RMS; ordinary close speech
    /// into a 16-bit microphone gives a few thousand); the noise level is the first frame's.
    public init(signalToNoiseDecibels: Double = 30, initialSpeechLevel: Double = 4000) {
        self.signalToNoiseDecibels = signalToNoiseDecibels
        speechLevel = initialSpeechLevel
        noiseLevel = nil
    }

    /// The samples with the floor added where it is missing.
    public func process(_ samples: [Int16]) -> [Int16] {
        var output = samples
        var start = 0
        while start < output.count {
            let end = min(output.count, start + frameLength)
            var energy = 0.0
            for index in start..<end { energy += Double(output[index]) * Double(output[index]) }
            let rms = (energy / Double(end - start)).squareRoot()
            // Peak follower falls about 6 dB per second; floor follower rises about 3 dB per second.
            speechLevel = max(rms, speechLevel * 0.993)
            let floorNow = noiseLevel.map { rms < $0 ? rms : min(rms, max(1, $0) * 1.0035) } ?? rms
            noiseLevel = floorNow
            let target = speechLevel / pow(10, signalToNoiseDecibels / 20)
            if floorNow < target {
                let level = (target * target - floorNow * floorNow).squareRoot()
                if floorNow < Self.digitalSilenceLevel {
                    for index in start..<end {
                        // Uniform noise in [-1.732, 1.732] (RMS 1), leaked at 0.98 per sample:
                        // its RMS settles at 1 / sqrt(1 - 0.98^2) = 5.03.
                        brown = 0.98 * brown + Double(Int(nextRandom() % 2001) - 1000) / 1000 * 1.732
                        output[index] = Int16(clamping: Int((Double(output[index]) + level * brown / 5.03).rounded()))
                    }
                } else {
                    // Uniform noise in [-a, a] has RMS a / sqrt(3).
                    let amplitude = (level * 1.732).rounded()
                    let span = UInt64(2 * Int(amplitude) + 1)
                    for index in start..<end {
                        let noise = Int(nextRandom() % span) - Int(amplitude)
                        output[index] = Int16(clamping: Int(output[index]) + noise)
                    }
                }
            }
            start = end
        }
        return output
    }

    private func nextRandom() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 33
    }

    /// Nothing is held back.
    public func flush() -> [Int16] { [] }
}
