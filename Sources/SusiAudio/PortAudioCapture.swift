import CPortAudio
import Foundation
import SusiCore
import Synchronization

/// Records from a PortAudio input device into a lock-free ring buffer and hands the audio out
/// as `AudioChunk`s.
///
/// PortAudio's callback thread only copies each buffer into `RingBuffer` (no allocation, no
/// locks, no awaits); when the consumer falls behind, whole buffers are dropped and counted in
/// `overflowCount`. `read` polls the ring and blocks the calling thread, so call it from a
/// dedicated thread, not the cooperative pool. Use one instance from one thread; the stream is
/// stopped and closed in `close()` or `deinit`.
public final class PortAudioCapture {
    /// The device recorded from.
    public let device: AudioDevice
    /// Rate and channels of the chunks `read` returns.
    public let format: AudioFormat

    private let session: PortAudioSession
    private let context: CaptureContext
    private var stream: UnsafeMutableRawPointer?
    private var running = false

    /// Opens (but does not start) an int16 input stream.
    ///
    /// - Parameters:
    ///   - sampleRate: Hz; `nil` uses the device's default rate.
    ///   - channels: interleaved channels to record.
    ///   - bufferMilliseconds: how much unread audio the ring buffer holds before dropping.
    /// - Throws: `audio-invalid-format`, `audio-no-device` or `audio-device-failed` with
    ///   PortAudio's reason.
    public init(
        session: PortAudioSession, device: AudioDevice, sampleRate: Int? = nil, channels: Int = 1,
        bufferMilliseconds: Int = 2_000, logger: Logger = .silent
    ) throws(AudioError) {
        let format = AudioFormat(sampleRate: sampleRate ?? device.defaultSampleRate, channels: channels)
        try format.validate()
        guard channels <= device.maxInputChannels else {
            throw AudioError(
                .deviceFailed,
                "device '\(device.name)' records at most \(device.maxInputChannels) channels, \(channels) requested")
        }
        self.session = session
        self.device = device
        self.format = format
        context = CaptureContext(
            ring: RingBuffer(capacity: format.frames(milliseconds: max(bufferMilliseconds, 100)) * channels),
            channels: channels)
        let userData = Unmanaged.passUnretained(context).toOpaque()
        stream = try session.openStream(
            device: device, direction: .input, format: format, callback: captureCallback, userData: userData)
        logger.debug("capture opened on '\(device.name)' at \(format)")
    }

    deinit {
        close()
    }

    /// Starts recording; does nothing if already started.
    public func start() throws(AudioError) {
        guard !running else { return }
        guard let stream else { throw AudioError(.deviceFailed, "capture on '\(device.name)' is closed") }
        try session.withLibrary { () throws(AudioError) in
            let code = Pa_StartStream(stream)
            guard code == paNoError.rawValue else {
                throw PortAudioSession.error(code, "cannot start recording on '\(device.name)'")
            }
        }
        running = true
    }

    /// Stops recording at once; unread audio stays readable.
    public func stop() {
        guard running, let stream else { return }
        _ = try? session.withLibrary { () throws(AudioError) in _ = Pa_AbortStream(stream) }
        running = false
    }

    /// Stops and closes the stream; later `start` calls fail. Safe to call twice.
    public func close() {
        stop()
        guard let stream else { return }
        _ = try? session.withLibrary { () throws(AudioError) in _ = Pa_CloseStream(stream) }
        self.stream = nil
    }

    /// Frames recorded and not yet read.
    public var availableFrames: Int { context.ring.available / format.channels }

    /// Samples dropped because nobody read them in time, plus buffers the driver reported lost.
    public var overflowCount: Int { context.ring.overflowCount + context.driverOverflows.load(ordering: .relaxed) }

    /// Returns up to `maxFrames` recorded frames, waiting up to `timeout` for at least one.
    ///
    /// Blocks the calling thread (polling every few milliseconds). Returns an empty chunk when
    /// the timeout passes with nothing recorded.
    /// - Throws: `audio-device-failed` when the stream has stopped by itself (device unplugged)
    ///   and nothing is left to read.
    public func read(maxFrames: Int, timeout: Duration = .seconds(1)) throws(AudioError) -> AudioChunk {
        let deadline = ContinuousClock.now + timeout
        while context.ring.available < format.channels {
            if let stream, running, Pa_IsStreamActive(stream) != 1 {
                throw AudioError(.deviceFailed, "recording on '\(device.name)' stopped unexpectedly")
            }
            guard ContinuousClock.now < deadline else { break }
            Thread.sleep(forTimeInterval: 0.003)
        }
        return readAvailable(maxFrames: maxFrames)
    }

    /// Returns up to `maxFrames` recorded frames without waiting; possibly none.
    public func readAvailable(maxFrames: Int = .max) -> AudioChunk {
        let samples = context.ring.read(
            maxCount: max(maxFrames, 0).multipliedReportingOverflow(by: format.channels).partialValue, multiple: format.channels)
        return AudioChunk(format: format, samples: samples)
    }

    /// Drops everything recorded but not yet read, e.g. audio captured while the speaker talked.
    public func discardPending() {
        context.ring.discardAll()
    }
}

/// What the real-time callback touches: immutable references only (the SPSC ring, whose only
/// producer the callback is, and an atomic counter), so it is shared with the PortAudio thread
/// without locks.
private final class CaptureContext: Sendable {
    let ring: RingBuffer
    let channels: Int
    let driverOverflows = Atomic<Int>(0)

    init(ring: RingBuffer, channels: Int) {
        self.ring = ring
        self.channels = channels
    }
}

/// PortAudio's input callback: copy into the ring and return. Runs on the audio thread, so it
/// must not allocate, lock or wait; `_withUnsafeGuaranteedRef` avoids even reference counting.
private func captureCallback(
    _ input: UnsafeRawPointer?, _ output: UnsafeMutableRawPointer?, _ frameCount: UInt,
    _ timeInfo: UnsafePointer<PaStreamCallbackTimeInfo>?, _ statusFlags: PaStreamCallbackFlags,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let userData else { return Int32(paContinue.rawValue) }
    Unmanaged<CaptureContext>.fromOpaque(userData)._withUnsafeGuaranteedRef { context in
        if statusFlags & susi_pa_input_overflow() != 0 {
            context.driverOverflows.add(1, ordering: .relaxed)
        }
        guard let input else { return }
        let samples = UnsafeBufferPointer(
            start: input.assumingMemoryBound(to: Int16.self), count: Int(frameCount) * context.channels)
        context.ring.write(samples)
    }
    return Int32(paContinue.rawValue)
}
