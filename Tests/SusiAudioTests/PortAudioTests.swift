import Foundation
import SusiAudio
import SusiCore
import XCTest

/// PortAudio through its real ALSA backend, against the file PCMs of `ALSATestConfig`.
final class PortAudioTests: XCTestCase {
    nonisolated(unsafe) private static var alsa: ALSATestConfig?

    override class func setUp() {
        super.setUp()
        alsa = try? ALSATestConfig()
    }

    override class func tearDown() {
        alsa?.remove()
        alsa = nil
        super.tearDown()
    }

    private func config() throws -> ALSATestConfig {
        try XCTUnwrap(Self.alsa, "could not write the ALSA test configuration")
    }

    /// Deterministic noise that never starts with silence, so it can be found in a recording.
    private func noise(count: Int, seed: UInt32) -> [Int16] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            let value = Int16(truncatingIfNeeded: Int32(bitPattern: state) >> 16)
            return value == 0 ? 1 : value
        }
    }

    func testEnumerationListsTheTestPCMs() throws {
        _ = try config()
        let session = try PortAudioSession()
        let devices = try session.devices()
        let capture = try XCTUnwrap(devices.first { $0.name == "susicapture" }, "devices: \(devices)")
        XCTAssertEqual(capture.hostAPI, "ALSA")
        XCTAssertGreaterThan(capture.maxInputChannels, 0)
        XCTAssertGreaterThan(capture.defaultSampleRate, 0)
        let playback = try XCTUnwrap(devices.first { $0.name == "susiplayback" })
        XCTAssertGreaterThan(playback.maxOutputChannels, 0)
        XCTAssertEqual(Set(devices.map(\.index)).count, devices.count, "indices are unique")
        let byIndex = try session.device(String(capture.index), for: .input)
        XCTAssertEqual(byIndex, capture)
        XCTAssertEqual(try session.device("SUSICAP", for: .input), capture)
        let defaultOutput = try session.device("default", for: .output)
        XCTAssertTrue(defaultOutput.isDefaultOutput, "\(defaultOutput)")
    }

    func testAskingForAMissingDeviceGivesTheTypedError() throws {
        _ = try config()
        let session = try PortAudioSession()
        XCTAssertThrowsError(try session.device("no-such-microphone", for: .input)) { error in
            guard let error = error as? AudioError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.code, "audio-no-device")
            XCTAssertTrue(error.message.contains("no-such-microphone"), error.message)
            XCTAssertTrue(error.message.contains("susicapture"), error.message)
        }
        XCTAssertThrowsError(try session.device("9999", for: .output)) { error in
            XCTAssertEqual((error as? AudioError)?.kind, .noDevice)
        }
    }

    func testCaptureDeliversTheSamplesOfTheInputFile() throws {
        let alsa = try config()
        let expected = noise(count: 16_000, seed: 7)
        try alsa.setCaptureInput(expected)
        let session = try PortAudioSession()
        let device = try session.device("susicapture", for: .input)
        let capture = try PortAudioCapture(
            session: session, device: device, sampleRate: 16_000, channels: 1,
            bufferMilliseconds: 4_000)
        XCTAssertEqual(capture.format, .speech)
        try capture.start()
        var received: [Int16] = []
        let deadline = Date().addingTimeInterval(15)
        while received.count < expected.count, Date() < deadline {
            let chunk = try capture.read(maxFrames: 1_000, timeout: .milliseconds(200))
            XCTAssertEqual(chunk.format, .speech)
            XCTAssertLessThanOrEqual(chunk.frameCount, 1_000)
            received += chunk.samples
        }
        capture.stop()
        XCTAssertGreaterThanOrEqual(received.count, expected.count)
        XCTAssertEqual(Array(received.prefix(expected.count)), expected)
        capture.close()
        capture.close()
        XCTAssertThrowsError(try capture.start()) { error in
            XCTAssertEqual((error as? AudioError)?.kind, .deviceFailed)
        }
    }

    /// The pipeline's microphone hands out as much as it is asked for, in order: the wake
    /// word's 80 ms steps while idle, 20 ms while a command is heard.
    func testTheMicrophoneSourceReadsWhatIsAskedFor() throws {
        let alsa = try config()
        let expected = noise(count: 16_000, seed: 11)
        try alsa.setCaptureInput(expected)
        let session = try PortAudioSession()
        let source = try MicrophoneSource(session: session, device: "susicapture", logger: .silent)
        var received: [Int16] = []
        for milliseconds in [80, 80, 20, 20, 80] {
            let chunk = try XCTUnwrap(try source.read(milliseconds: milliseconds))
            XCTAssertEqual(chunk.format, .speech)
            XCTAssertEqual(chunk.samples.count, milliseconds * 16, "\(milliseconds) ms")
            received += chunk.samples
        }
        XCTAssertEqual(received, Array(expected.prefix(received.count)))
    }

    func testStereoCaptureKeepsFramesInterleaved() throws {
        let alsa = try config()
        let expected = noise(count: 8_000, seed: 11)
        try alsa.setCaptureInput(expected)
        let session = try PortAudioSession()
        let capture = try PortAudioCapture(
            session: session, device: session.device("susicapture", for: .input),
            sampleRate: 48_000, channels: 2)
        try capture.start()
        var received: [Int16] = []
        let deadline = Date().addingTimeInterval(15)
        while received.count < expected.count, Date() < deadline {
            let chunk = try capture.read(maxFrames: 333, timeout: .milliseconds(200))
            XCTAssertEqual(chunk.samples.count % 2, 0)
            received += chunk.samples
        }
        capture.close()
        XCTAssertEqual(Array(received.prefix(expected.count)), expected)
    }

    func testPlaybackWritesTheSamplesToTheOutputFile() throws {
        let alsa = try config()
        let samples = noise(count: 12_000, seed: 3)
        let session = try PortAudioSession()
        let playback = try PortAudioPlayback(
            session: session, device: session.device("susiplayback", for: .output),
            sampleRate: 16_000, channels: 1)
        for start in stride(from: 0, to: samples.count, by: 1_500) {
            try playback.write(AudioChunk(format: .speech, samples: Array(samples[start..<min(start + 1_500, samples.count)])))
        }
        playback.close()
        let played = try alsa.playedSamples()
        // The backend may pad with silence before and after; the samples themselves must be intact.
        let first = try XCTUnwrap(played.firstIndex { $0 != 0 }, "nothing was played")
        XCTAssertGreaterThanOrEqual(played.count - first, samples.count)
        XCTAssertEqual(Array(played[first..<min(first + samples.count, played.count)]), samples)
        XCTAssertTrue(played[(first + samples.count)...].allSatisfy { $0 == 0 }, "only silence after the samples")
    }

    func testPlaybackConvertsOtherFormatsOnTheWay() throws {
        let alsa = try config()
        let source = AudioFormat(sampleRate: 22_050, channels: 1)
        let tone = (0..<11_025).map { n in Int16((9_000 * sin(2 * Double.pi * 500 * Double(n) / 22_050 + 1)).rounded()) }
        let session = try PortAudioSession()
        let playback = try PortAudioPlayback(
            session: session, device: session.device("susiplayback", for: .output),
            sampleRate: 16_000, channels: 2)
        for start in stride(from: 0, to: tone.count, by: 2_000) {
            try playback.write(AudioChunk(format: source, samples: Array(tone[start..<min(start + 2_000, tone.count)])))
        }
        try playback.drain()
        playback.close()
        let expected = try AudioConverter.convert(
            AudioChunk(format: source, samples: tone), to: AudioFormat(sampleRate: 16_000, channels: 2)
        ).samples
        let played = try alsa.playedSamples()
        let first = try XCTUnwrap(played.firstIndex { $0 != 0 })
        let firstExpected = try XCTUnwrap(expected.firstIndex { $0 != 0 })
        XCTAssertEqual(first % 2, 0, "frames stay aligned")
        XCTAssertEqual(
            Array(played[first..<min(first + expected.count - firstExpected, played.count)]), Array(expected[firstExpected...]))
    }

    func testInvalidRequestsGiveTypedErrors() throws {
        _ = try config()
        let session = try PortAudioSession()
        let device = try session.device("susicapture", for: .input)
        XCTAssertThrowsError(try PortAudioCapture(session: session, device: device, sampleRate: 0)) { error in
            XCTAssertEqual((error as? AudioError)?.code, "audio-invalid-format")
        }
        XCTAssertThrowsError(try PortAudioCapture(session: session, device: device, channels: device.maxInputChannels + 1)) {
            error in
            XCTAssertEqual((error as? AudioError)?.code, "audio-device-failed")
        }
        let ghost = AudioDevice(
            index: 4_242, name: "ghost", hostAPI: "ALSA", maxInputChannels: 2, maxOutputChannels: 2,
            defaultSampleRate: 16_000, isDefaultInput: false, isDefaultOutput: false)
        XCTAssertThrowsError(try PortAudioPlayback(session: session, device: ghost)) { error in
            guard let error = error as? AudioError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.stage, .audio)
            XCTAssertTrue([.noDevice, .deviceFailed].contains(error.kind), error.code)
            XCTAssertTrue(error.message.contains("ghost"), error.message)
        }
    }

    func testSessionsNestAndReinitialise() throws {
        _ = try config()
        var outer: PortAudioSession? = try PortAudioSession()
        do {
            let inner = try PortAudioSession()
            XCTAssertFalse(try inner.devices().isEmpty)
        }
        XCTAssertFalse(try XCTUnwrap(outer).devices().isEmpty, "still initialised while one session lives")
        outer = nil
        let again = try PortAudioSession()
        XCTAssertTrue(try again.devices().contains { $0.name == "susiplayback" })
    }
}
