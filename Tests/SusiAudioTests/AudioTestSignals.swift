import Foundation

/// Test signals and the measurements the converter tests make on them.
enum AudioTestSignals {
    /// A sine of `frequency` Hz and peak `amplitude`, `count` samples long, at `rate` Hz.
    static func sine(frequency: Double, rate: Int, count: Int, amplitude: Double = 10_000, phase: Double = 0) -> [Int16] {
        (0..<count).map { n in
            Int16((amplitude * sin(2 * Double.pi * frequency * Double(n) / Double(rate) + phase)).rounded())
        }
    }

    /// Peak amplitude of the `frequency` component, by the Goertzel algorithm over `samples`.
    static func goertzelAmplitude(_ samples: ArraySlice<Int16>, frequency: Double, rate: Int) -> Double {
        let omega = 2 * Double.pi * frequency / Double(rate)
        let coefficient = 2 * cos(omega)
        var s1 = 0.0
        var s2 = 0.0
        for sample in samples {
            let s0 = Double(sample) + coefficient * s1 - s2
            s2 = s1
            s1 = s0
        }
        let power = s1 * s1 + s2 * s2 - coefficient * s1 * s2
        return 2 * power.squareRoot() / Double(samples.count)
    }

    /// Root mean square of `samples`.
    static func rms(_ samples: ArraySlice<Int16>) -> Double {
        guard !samples.isEmpty else { return 0 }
        let sum = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        return (sum / Double(samples.count)).squareRoot()
    }

    /// Sign changes from negative to non-negative.
    static func risingZeroCrossings(_ samples: ArraySlice<Int16>) -> Int {
        var count = 0
        var previous = samples.first ?? 0
        for sample in samples.dropFirst() {
            if previous < 0, sample >= 0 { count += 1 }
            previous = sample
        }
        return count
    }
}
