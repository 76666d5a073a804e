import Foundation
import SusiCore
import SusiModel

/// Reads a WAV file of any rate and channel count as 16 kHz mono chunks for the pipeline.
///
/// As fast as possible by default; with `realtime` each chunk is released when its time has
/// come, as a microphone would deliver it, and audio keeps "arriving" while the speaker talks.
public final class WAVFileSource: AudioSource {
    /// Samples per chunk `readAvailable` hands out: 20 ms.
    public static let chunkSamples = 320

    private let samples: [Int16]
    private var position = 0
    private let realtime: Bool
    private var startTime: ContinuousClock.Instant?

    /// Loads and converts the whole file.
    ///
    /// - Throws: `AudioError` for a missing, unreadable or non-WAV file.
    public init(path: String, realtime: Bool = false) throws(AudioError) {
        let chunk = try WAVFile.read(path: path)
        samples = try AudioConverter.convert(chunk, to: .speech).samples
        self.realtime = realtime
    }

    /// Audio length in milliseconds.
    public var durationMs: Int { AudioFormat.speech.milliseconds(frames: samples.count) }

    public func read(milliseconds: Int) throws -> AudioChunk? {
        guard position < samples.count else { return nil }
        let length = max(1, AudioFormat.speech.frames(milliseconds: milliseconds))
        if realtime {
            let start = startTime ?? ContinuousClock.now
            startTime = start
            let due = start + .milliseconds(AudioFormat.speech.milliseconds(frames: position + length))
            let now = ContinuousClock.now
            if due > now { Thread.sleep(forTimeInterval: (due - now).seconds) }
        }
        return next(length)
    }

    public func readAvailable() throws -> AudioChunk? {
        guard realtime, let start = startTime, position < samples.count else { return nil }
        let arrivedSamples = Int((ContinuousClock.now - start).seconds * 16_000)
        return arrivedSamples >= position + Self.chunkSamples ? next(Self.chunkSamples) : nil
    }

    private func next(_ length: Int) -> AudioChunk {
        let end = min(position + length, samples.count)
        defer { position = end }
        return AudioChunk(format: .speech, samples: Array(samples[position..<end]))
    }
}

/// Writes what the speaker says into a WAV file (22.05 kHz mono, eSpeak NG's own rate).
///
/// The file appears only when `close()` succeeds. With `realtime`, `play` takes as long as
/// the audio lasts, like a loudspeaker, so the input keeps flowing while it talks.
public final class WAVFileSink: AudioSink {
    public static let format = AudioFormat(sampleRate: 22_050, channels: 1)

    private let writer: WAVWriter
    private let realtime: Bool
    private var converters: [AudioFormat: AudioConverter] = [:]
    private var playedUntil: ContinuousClock.Instant?

    /// Creates the (temporary) output file.
    ///
    /// - Throws: `audio-unwritable` when the path cannot be written.
    public init(path: String, realtime: Bool = false) throws(AudioError) {
        writer = try WAVWriter(path: path, format: Self.format)
        self.realtime = realtime
    }

    public func play(_ chunk: AudioChunk) throws {
        var converted = chunk
        if chunk.format != Self.format {
            var converter = try converters[chunk.format] ?? AudioConverter(from: chunk.format, to: Self.format)
            converted = try converter.convert(chunk)
            converters[chunk.format] = converter
        }
        try write(converted)
    }

    /// Appends converted audio; with `realtime`, takes about as long as it lasts.
    private func write(_ converted: AudioChunk) throws {
        try writer.append(converted)
        guard realtime else { return }
        let now = ContinuousClock.now
        let until = max(playedUntil ?? now, now) + .milliseconds(converted.milliseconds)
        playedUntil = until
        // Sleep only while more than a chunk is queued, as a device buffer would.
        let ahead = until - now
        if ahead > .milliseconds(100) {
            Thread.sleep(forTimeInterval: ahead.seconds - 0.1)
        }
    }

    public func interrupt() {
        playedUntil = nil
    }

    /// Writes what the converters still hold (the resampling filter's tail), then waits, with
    /// `realtime`, until the audio would have been heard.
    public func drain() throws {
        let tails = converters.values.map { converter in
            var converter = converter
            return converter.flush()
        }
        converters = [:]
        for tail in tails where !tail.samples.isEmpty { try write(tail) }
        guard realtime, let until = playedUntil else { return }
        let now = ContinuousClock.now
        if until > now {
            Thread.sleep(forTimeInterval: (until - now).seconds)
        }
        playedUntil = nil
    }

    /// Finishes the file; call once at the end.
    public func close() throws {
        try writer.close()
    }

    /// Frames written so far.
    public var framesWritten: Int { writer.framesWritten }
}
