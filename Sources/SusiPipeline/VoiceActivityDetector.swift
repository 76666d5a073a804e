import Foundation

/// Frame-level voice activity for 16 kHz mono audio, fed in any chunk size.
///
/// A 10 ms frame is voiced when its energy above 200 Hz is clearly above a tracked noise floor
/// (which falls fast and rises slowly, so speech does not lift it) and above an absolute
/// minimum. Value type, no I/O.
public struct VoiceActivityDetector: Sendable {
    /// Samples per analysis frame (10 ms).
    public static let frameSamples = 160
    /// Voiced when this many dB above the noise floor; may change between frames.
    public var marginDB: Double
    /// Never voiced below this level (dBFS): digital silence and a faint hiss.
    static let absoluteMinimumDB = -50.0
    /// Frames this far above the noise floor do not lift it quickly.
    static let mayBeVoiceDB = 4.0

    /// The tracked background level in dBFS; nil before the first frame.
    public private(set) var noiseFloorDB: Double?
    private var pending: [Double] = []
    private var highPass = HighPass(cutoffHz: 200, sampleRate: 16_000)

    /// `noiseFloorDB` seeds the floor from audio heard before; `marginDB` is how far above
    /// it a frame must be to count as voiced.
    public init(noiseFloorDB: Double? = nil, marginDB: Double = 10) {
        self.noiseFloorDB = noiseFloorDB
        self.marginDB = marginDB
        pending.reserveCapacity(Self.frameSamples)
    }

    /// Consumes samples and calls `onFrame` with each whole frame's voiced flag, in order.
    public mutating func process(_ samples: some Collection<Int16>, onFrame: (Bool) -> Void) {
        for sample in samples {
            pending.append(highPass.filter(Double(sample)))
            if pending.count == Self.frameSamples {
                onFrame(classify(pending))
                pending.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Consumes samples; true when any whole frame among them was voiced.
    public mutating func anyVoiced(_ samples: some Collection<Int16>) -> Bool {
        var voiced = false
        process(samples) { voiced = voiced || $0 }
        return voiced
    }

    private mutating func classify(_ frame: [Double]) -> Bool {
        let level = Self.level(of: frame)
        let floor = noiseFloorDB ?? level
        let voiced = level > max(floor + marginDB, Self.absoluteMinimumDB)
        // A frame a few dB above the floor may be a soft sound under the margin: it lifts the
        // floor only as slowly as voice does. Lifted faster, the floor climbed onto a soft
        // stretch of a command in 10 dB noise, and the rest of it was taken for silence.
        let mayBeVoice = voiced || level > floor + Self.mayBeVoiceDB
        noiseFloorDB = level < floor ? floor + (level - floor) * 0.3 : floor + (level - floor) * (mayBeVoice ? 0.002 : 0.05)
        return voiced
    }

    /// Level of a frame in dBFS.
    static func level(of frame: [Double]) -> Double {
        var sum = 0.0
        for value in frame { sum += value * value }
        let rms = (sum / Double(max(frame.count, 1))).squareRoot()
        return 20 * log10(max(rms, 1) / 32768)
    }
}

/// A second-order Butterworth high-pass filter, one sample at a time.
///
/// Voice activity is judged above 200 Hz: hum, rumble and the low end of pink or brown noise
/// carry most of their energy below it, and their slow swells otherwise pass for voice (in
/// brown noise a command's end was heard half a second late), while speech keeps most of its
/// energy above it.
struct HighPass: Sendable {
    private let b0, b1, b2, a1, a2: Double
    private var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0

    init(cutoffHz: Double, sampleRate: Double) {
        let omega = 2 * Double.pi * cutoffHz / sampleRate
        let alpha = sin(omega) / 2.squareRoot()  // sin(w) / (2 Q), Q = 1 / sqrt(2)
        let a0 = 1 + alpha
        b0 = (1 + cos(omega)) / 2 / a0
        b1 = -(1 + cos(omega)) / a0
        b2 = b0
        a1 = -2 * cos(omega) / a0
        a2 = (1 - alpha) / a0
    }

    mutating func filter(_ x: Double) -> Double {
        let y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        (x2, x1, y2, y1) = (x1, x, y1, y)
        return y
    }
}
