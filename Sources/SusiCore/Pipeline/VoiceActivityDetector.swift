import Foundation

/// Frame-level voice activity for 16 kHz mono audio, fed in any chunk size.
///
/// A 10 ms frame is voiced when its energy is clearly above a tracked noise floor (which
/// falls fast and rises slowly, so speech does not lift it) and above an absolute minimum.
/// Value type, no I/O.
public struct VoiceActivityDetector: Sendable {
    /// Samples per analysis frame (10 ms).
    public static let frameSamples = 160
    /// Voiced when this many dB above the noise floor; may change between frames.
    public var marginDB: Double
    /// Never voiced below this level (dBFS): digital silence and a faint hiss.
    static let absoluteMinimumDB = -50.0

    /// The tracked background level in dBFS; nil before the first frame.
    public private(set) var noiseFloorDB: Double?
    private var pending: [Int16] = []

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
            pending.append(sample)
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

    private mutating func classify(_ frame: [Int16]) -> Bool {
        let level = Self.level(of: frame)
        let floor = noiseFloorDB ?? level
        let voiced = level > max(floor + marginDB, Self.absoluteMinimumDB)
        noiseFloorDB = level < floor ? floor + (level - floor) * 0.3 : floor + (level - floor) * (voiced ? 0.002 : 0.05)
        return voiced
    }

    /// Level of a frame in dBFS.
    static func level(of frame: [Int16]) -> Double {
        var sum = 0.0
        for sample in frame {
            let value = Double(sample)
            sum += value * value
        }
        let rms = (sum / Double(max(frame.count, 1))).squareRoot()
        return 20 * log10(max(rms, 1) / 32768)
    }
}
