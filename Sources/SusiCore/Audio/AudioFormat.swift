/// The shape of PCM audio: sample rate and interleaved channel count, 16-bit signed samples.
public struct AudioFormat: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Samples per second per channel.
    public var sampleRate: Int
    /// Interleaved channels.
    public var channels: Int

    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// What the recogniser and wake word consume: 16 kHz mono.
    public static let speech = AudioFormat(sampleRate: 16_000, channels: 1)

    public var description: String { "\(sampleRate) Hz, \(channels) ch" }

    /// Milliseconds covered by `frames` frames (one frame = one sample per channel).
    public func milliseconds(frames: Int) -> Int { frames * 1000 / sampleRate }

    /// Frames covering `milliseconds` ms.
    public func frames(milliseconds: Int) -> Int { milliseconds * sampleRate / 1000 }
}

/// A run of interleaved int16 samples with its format carried along.
public struct AudioChunk: Sendable, Equatable {
    public var format: AudioFormat
    /// Interleaved samples; `samples.count` is a multiple of `format.channels`.
    public var samples: [Int16]

    public init(format: AudioFormat, samples: [Int16]) {
        self.format = format
        self.samples = samples
    }

    /// Frames in the chunk.
    public var frameCount: Int { samples.count / max(format.channels, 1) }

    /// Duration in milliseconds.
    public var milliseconds: Int { format.milliseconds(frames: frameCount) }
}
