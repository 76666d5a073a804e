import CPortAudio
import Foundation
import SusiCore

/// Plays `AudioChunk`s on a PortAudio output device with blocking writes.
///
/// Chunks in another format are converted to the stream's format on the way (with one
/// `AudioConverter` per source format, so consecutive chunks of a stream join without clicks).
/// `write` blocks until the device has room, so call it from a dedicated thread, not the
/// cooperative pool. Use one instance from one thread; the stream is closed in `close()` or
/// `deinit`.
public final class PortAudioPlayback {
    /// The device played to.
    public let device: AudioDevice
    /// The rate and channels the device is driven at.
    public let format: AudioFormat

    private let session: PortAudioSession
    private let logger: Logger
    private var stream: UnsafeMutableRawPointer?
    private var running = false
    private var converter: AudioConverter?

    /// Opens (but does not start) an int16 output stream.
    ///
    /// - Parameters:
    ///   - sampleRate: Hz; `nil` uses the device's default rate.
    ///   - channels: interleaved channels to play.
    /// - Throws: `audio-invalid-format`, `audio-no-device` or `audio-device-failed` with
    ///   PortAudio's reason.
    public init(
        session: PortAudioSession, device: AudioDevice, sampleRate: Int? = nil, channels: Int = 1, logger: Logger = .silent
    ) throws(AudioError) {
        let format = AudioFormat(sampleRate: sampleRate ?? device.defaultSampleRate, channels: channels)
        try format.validate()
        guard channels <= device.maxOutputChannels else {
            throw AudioError(
                .deviceFailed, "device '\(device.name)' plays at most \(device.maxOutputChannels) channels, \(channels) requested"
            )
        }
        self.session = session
        self.device = device
        self.format = format
        self.logger = logger
        stream = try session.openStream(device: device, direction: .output, format: format)
        logger.debug("playback opened on '\(device.name)' at \(format)")
    }

    deinit {
        close()
    }

    /// Plays `chunk`, converting it to `format` if needed; starts the stream on first use.
    ///
    /// Blocks until the samples are queued on the device.
    /// - Throws: `audio-invalid-format` for a malformed chunk, `audio-device-failed` when the
    ///   device rejects the write or the stream is closed.
    public func write(_ chunk: AudioChunk) throws(AudioError) {
        try chunk.validate()
        var samples = chunk.samples
        if chunk.format != format {
            if converter?.source != chunk.format {
                try flushConverter()
                converter = try AudioConverter(from: chunk.format, to: format)
            }
            // The converter was just set to a non-nil value above if it was missing.
            guard var active = converter else { return }
            samples = try active.convert(chunk).samples
            converter = active
        } else {
            try flushConverter()
        }
        try play(samples)
    }

    /// Plays what is still queued (including the converter's tail) and stops the stream; the
    /// next `write` starts it again.
    public func drain() throws(AudioError) {
        try flushConverter()
        guard running, let stream else { return }
        running = false
        try session.withLibrary { () throws(AudioError) in
            let code = Pa_StopStream(stream)
            guard code == paNoError.rawValue else {
                throw PortAudioSession.error(code, "cannot finish playback on '\(device.name)'")
            }
        }
    }

    /// Stops at once, dropping what is queued.
    public func stop() {
        converter = nil
        guard running, let stream else { return }
        _ = try? session.withLibrary { () throws(AudioError) in _ = Pa_AbortStream(stream) }
        running = false
    }

    /// Plays what is queued, then closes the stream; later writes fail. Safe to call twice.
    public func close() {
        do {
            try drain()
        } catch {
            logger.warning("playback on '\(device.name)' did not finish cleanly: \(error.message)")
            stop()
        }
        guard let stream else { return }
        _ = try? session.withLibrary { () throws(AudioError) in _ = Pa_CloseStream(stream) }
        self.stream = nil
    }

    private func flushConverter() throws(AudioError) {
        guard var active = converter else { return }
        converter = nil
        try play(active.flush().samples)
    }

    private func play(_ samples: [Int16]) throws(AudioError) {
        guard !samples.isEmpty else { return }
        guard let stream else { throw AudioError(.deviceFailed, "playback on '\(device.name)' is closed") }
        if !running {
            try session.withLibrary { () throws(AudioError) in
                let code = Pa_StartStream(stream)
                guard code == paNoError.rawValue else {
                    throw PortAudioSession.error(code, "cannot start playback on '\(device.name)'")
                }
            }
            running = true
        }
        let code = samples.withUnsafeBufferPointer { buffer in
            Pa_WriteStream(stream, buffer.baseAddress, UInt(buffer.count / format.channels))
        }
        // An underflow means the device briefly ran dry before this write; the samples were still taken.
        guard code == paNoError.rawValue || code == paOutputUnderflowed.rawValue else {
            throw PortAudioSession.error(code, "cannot play on '\(device.name)'")
        }
    }
}
