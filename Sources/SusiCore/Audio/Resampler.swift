import Foundation

/// Streaming sample-rate converter for one channel of float samples, using a Kaiser-windowed
/// sinc filter.
///
/// The rate ratio is reduced to a fraction `up/down`, so each output sample sits at an exact
/// position between input samples; the filter for each of those positions is computed once.
/// When downsampling, the filter's cutoff sits just below the output's Nyquist frequency, so
/// content that would alias (above 8 kHz for 16 kHz output) is removed. State carries across
/// `process` calls: splitting the input into chunks changes neither the result nor its length,
/// and chunk boundaries cannot click. Input is treated as preceded by silence; call `flush()`
/// at the end to get the samples still held back by the filter.
public struct Resampler: Sendable {
    /// Input rate in Hz.
    public let inputRate: Int
    /// Output rate in Hz.
    public let outputRate: Int

    private let kernel: Kernel
    /// Input samples not yet fully used; `pending[0]` is input sample number `pendingStart`.
    private var pending: [Float]
    private var pendingStart: Int
    /// Index of the next output sample.
    private var nextOutput = 0
    /// Input samples received so far.
    private var inputCount = 0

    /// Creates a converter from `inputRate` to `outputRate` (both in Hz, positive).
    ///
    /// - Parameters:
    ///   - zeroCrossings: half the filter length in zero crossings of the sinc; more is sharper
    ///     and slower. With 16, tones that would alias come out at least 60 dB down (the tests
    ///     check this for 44.1/48/22.05 kHz to 16 kHz) and the transition band is about 1.3 kHz
    ///     wide at 16 kHz output.
    ///   - passband: the cutoff as a fraction of the lower Nyquist frequency; the transition band
    ///     lies above it.
    /// - Throws: `audio-invalid-format` for a non-positive rate.
    public init(inputRate: Int, outputRate: Int, zeroCrossings: Int = 16, passband: Double = 0.92) throws(AudioError) {
        guard inputRate > 0, outputRate > 0 else {
            throw AudioError(.invalidFormat, "cannot resample from \(inputRate) Hz to \(outputRate) Hz")
        }
        self.inputRate = inputRate
        self.outputRate = outputRate
        kernel = Kernel(inputRate: inputRate, outputRate: outputRate, zeroCrossings: max(zeroCrossings, 2), passband: min(max(passband, 0.1), 1))
        // Leading silence lets the first output samples use a full filter.
        pending = [Float](repeating: 0, count: kernel.halfTaps)
        pendingStart = -kernel.halfTaps
    }

    /// Whether the rates are equal, so samples pass through untouched.
    public var isIdentity: Bool { kernel.up == kernel.down }

    /// Converts the next run of input samples, returning every output sample it completes.
    public mutating func process(_ input: [Float]) -> [Float] {
        inputCount += input.count
        if isIdentity { return input }
        pending.append(contentsOf: input)
        return drain(upToInput: pendingStart + pending.count)
    }

    /// Returns the output still held back by the filter, as if the input ended in silence.
    ///
    /// After `flush()` the total output is `ceil(inputCount * outputRate / inputRate)` samples.
    /// The resampler then starts over, ready for an unrelated stream.
    public mutating func flush() -> [Float] {
        defer { reset() }
        if isIdentity { return [] }
        pending.append(contentsOf: [Float](repeating: 0, count: kernel.halfTaps + 1))
        let total = (inputCount * kernel.up + kernel.down - 1) / kernel.down
        var output = drain(upToInput: pendingStart + pending.count)
        // The silence appended above can complete a few outputs past the true end.
        let excess = min(max(nextOutput - total, 0), output.count)
        output.removeLast(excess)
        return output
    }

    /// Forgets all state, as if newly created.
    public mutating func reset() {
        pending = [Float](repeating: 0, count: kernel.halfTaps)
        pendingStart = -kernel.halfTaps
        nextOutput = 0
        inputCount = 0
    }

    /// Computes outputs whose filter window ends before input sample `available`.
    private mutating func drain(upToInput available: Int) -> [Float] {
        var output: [Float] = []
        output.reserveCapacity(max(available - pendingStart, 0) * kernel.up / kernel.down + 1)
        let up = kernel.up
        let down = kernel.down
        let taps = kernel.taps
        let halfTaps = kernel.halfTaps
        pending.withUnsafeBufferPointer { input in
            kernel.coefficients.withUnsafeBufferPointer { coefficients in
                while true {
                    let position = nextOutput * down
                    let center = position / up
                    let first = center - halfTaps + 1
                    guard first + taps <= available else { break }
                    let phase = kernel.phaseIndex(position % up)
                    let row = phase * taps
                    let start = first - pendingStart
                    var sum: Float = 0
                    for k in 0..<taps {
                        sum += input[start + k] * coefficients[row + k]
                    }
                    output.append(sum)
                    nextOutput += 1
                }
            }
        }
        // Keep only what the next output's window still needs.
        let neededFrom = (nextOutput * down) / up - halfTaps + 1
        let drop = min(max(neededFrom - pendingStart, 0), pending.count)
        if drop > 0 {
            pending.removeFirst(drop)
            pendingStart += drop
        }
        return output
    }

    /// The precomputed polyphase filter bank, shared between copies of a resampler.
    private final class Kernel: Sendable {
        let up: Int
        let down: Int
        let taps: Int
        let halfTaps: Int
        let phases: Int
        /// `phases` rows of `taps` coefficients.
        let coefficients: [Float]

        /// More distinct positions than this are rounded to the nearest of this many; the
        /// timing error (under 1/8192 of a sample) is far below audibility.
        static let maximumPhases = 4096

        init(inputRate: Int, outputRate: Int, zeroCrossings: Int, passband: Double) {
            let divisor = Kernel.gcd(inputRate, outputRate)
            up = outputRate / divisor
            down = inputRate / divisor
            // Cutoff relative to the input Nyquist frequency.
            let cutoff = passband * min(1, Double(up) / Double(down))
            let halfWidth = Double(zeroCrossings) / cutoff
            halfTaps = Int(halfWidth.rounded(.up))
            taps = 2 * halfTaps
            phases = min(up, Kernel.maximumPhases)
            let beta = 9.0
            let besselBeta = Kernel.besselI0(beta)
            var coefficients = [Float](repeating: 0, count: phases * taps)
            for phase in 0..<phases {
                let fraction = Double(phase) / Double(phases)
                var row = [Double](repeating: 0, count: taps)
                var sum = 0.0
                for k in 0..<taps {
                    // Distance from the output position to input sample `center - halfTaps + 1 + k`.
                    let x = fraction + Double(halfTaps - 1 - k)
                    let ratio = x / halfWidth
                    guard abs(ratio) < 1 else { continue }
                    let window = Kernel.besselI0(beta * (1 - ratio * ratio).squareRoot()) / besselBeta
                    let value = cutoff * Kernel.sinc(cutoff * x) * window
                    row[k] = value
                    sum += value
                }
                // Unity gain at DC for every phase, so a constant signal stays exactly constant.
                for k in 0..<taps {
                    coefficients[phase * taps + k] = Float(row[k] / sum)
                }
            }
            self.coefficients = coefficients
        }

        @inline(__always)
        func phaseIndex(_ remainder: Int) -> Int {
            if phases == up { return remainder }
            return min((remainder * phases + up / 2) / up, phases - 1)
        }

        static func sinc(_ x: Double) -> Double {
            if abs(x) < 1e-12 { return 1 }
            let angle = Double.pi * x
            return sin(angle) / angle
        }

        /// Modified Bessel function of the first kind, order zero, by its power series.
        static func besselI0(_ x: Double) -> Double {
            var sum = 1.0
            var term = 1.0
            let half = x / 2
            for k in 1..<64 {
                term *= (half / Double(k)) * (half / Double(k))
                sum += term
                if term < sum * 1e-17 { break }
            }
            return sum
        }

        static func gcd(_ a: Int, _ b: Int) -> Int {
            var (a, b) = (a, b)
            while b != 0 { (a, b) = (b, a % b) }
            return a
        }
    }
}
