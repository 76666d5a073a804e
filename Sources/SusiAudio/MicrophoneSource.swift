import Foundation
import SusiCore
import SusiModel

/// The pipeline's audio source on a real capture device: PortAudio at the device's rate,
/// converted to 16 kHz mono; `readAvailable` hands out 20 ms chunks.
///
/// Use from the pipeline's thread only; PortAudio's own thread only fills the ring buffer.
public final class MicrophoneSource: AudioSource {
    private let capture: PortAudioCapture
    private var converter: AudioConverter
    private let chunkFrames: Int
    private static let bufferMilliseconds = 30_000

    /// Opens and starts capture on the device `specifier` names (`default`, a name or an index).
    ///
    /// - Throws: `audio-no-device` when no such capture device exists, `audio-device-failed`
    ///   when it cannot be opened.
    public init(session: PortAudioSession, device specifier: String, logger: Logger) throws(AudioError) {
        let device = try session.device(specifier, for: .input)
        // 16 kHz is what the recogniser wants; devices that cannot do it record at their own
        // rate. The buffer holds 30 s so that a slow answer loses none of what is said next.
        do {
            capture = try PortAudioCapture(
                session: session, device: device, sampleRate: AudioFormat.speech.sampleRate, channels: 1,
                bufferMilliseconds: Self.bufferMilliseconds, logger: logger)
        } catch {
            capture = try PortAudioCapture(
                session: session, device: device, channels: 1, bufferMilliseconds: Self.bufferMilliseconds, logger: logger)
        }
        converter = try AudioConverter(from: capture.format, to: .speech)
        chunkFrames = capture.format.frames(milliseconds: 20)
        try capture.start()
        logger.info("listening on '\(device.name)' at \(capture.format)")
    }

    public func read(milliseconds: Int) throws -> AudioChunk? {
        let frames = max(1, capture.format.frames(milliseconds: milliseconds))
        while capture.availableFrames < frames {
            // Waits for audio and throws when the device has gone away.
            _ = try capture.read(maxFrames: 0, timeout: .milliseconds(500))
            // Then sleeps until the rest should be there, rather than waking to look.
            let missing = frames - capture.availableFrames
            if missing > 0 { Thread.sleep(forTimeInterval: Double(missing) / Double(capture.format.sampleRate)) }
        }
        return try converter.convert(capture.readAvailable(maxFrames: frames))
    }

    public func readAvailable() throws -> AudioChunk? {
        guard capture.availableFrames >= chunkFrames else { return nil }
        return try converter.convert(capture.readAvailable(maxFrames: chunkFrames))
    }
}

/// The pipeline's audio sink on a real playback device.
public final class SpeakerSink: AudioSink {
    private let playback: PortAudioPlayback

    /// Opens the device `specifier` names at `sampleRate` (eSpeak NG's 22050 Hz by default).
    ///
    /// - Throws: `audio-no-device` or `audio-device-failed`.
    public init(session: PortAudioSession, device specifier: String, sampleRate: Int = 22_050, logger: Logger) throws(AudioError)
    {
        let device = try session.device(specifier, for: .output)
        playback = try PortAudioPlayback(session: session, device: device, sampleRate: sampleRate, channels: 1, logger: logger)
    }

    public func play(_ chunk: AudioChunk) throws { try playback.write(chunk) }
    public func interrupt() { playback.stop() }
    public func drain() throws { try playback.drain() }
}
