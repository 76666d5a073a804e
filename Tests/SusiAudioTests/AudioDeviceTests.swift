import SusiAudio
import SusiCore
import XCTest

final class AudioDeviceTests: XCTestCase {
    private let devices = [
        AudioDevice(
            index: 0, name: "HDA Intel PCH: ALC3246 Analog (hw:0,0)", hostAPI: "ALSA", maxInputChannels: 2, maxOutputChannels: 2,
            defaultSampleRate: 44_100, isDefaultInput: false, isDefaultOutput: false),
        AudioDevice(
            index: 1, name: "USB PnP Sound Device: Audio (hw:1,0)", hostAPI: "ALSA", maxInputChannels: 1, maxOutputChannels: 0,
            defaultSampleRate: 48_000, isDefaultInput: false, isDefaultOutput: false),
        AudioDevice(
            index: 2, name: "pulse", hostAPI: "ALSA", maxInputChannels: 32, maxOutputChannels: 32,
            defaultSampleRate: 44_100, isDefaultInput: false, isDefaultOutput: false),
        AudioDevice(
            index: 3, name: "default", hostAPI: "ALSA", maxInputChannels: 32, maxOutputChannels: 32,
            defaultSampleRate: 44_100, isDefaultInput: true, isDefaultOutput: true),
        AudioDevice(
            index: 4, name: "Speaker HAT", hostAPI: "ALSA", maxInputChannels: 0, maxOutputChannels: 2,
            defaultSampleRate: 48_000, isDefaultInput: false, isDefaultOutput: false),
    ]

    func testDefaultPicksTheFlaggedDevice() throws {
        XCTAssertEqual(try AudioDevice.select("default", from: devices, direction: .input).index, 3)
        XCTAssertEqual(try AudioDevice.select("", from: devices, direction: .output).index, 3)
        XCTAssertEqual(try AudioDevice.select(" Default ", from: devices, direction: .output).index, 3)
    }

    func testIndexExactAndSubstringNames() throws {
        XCTAssertEqual(try AudioDevice.select("1", from: devices, direction: .input).name, "USB PnP Sound Device: Audio (hw:1,0)")
        XCTAssertEqual(try AudioDevice.select("usb", from: devices, direction: .input).index, 1)
        XCTAssertEqual(try AudioDevice.select("hw:0,0", from: devices, direction: .output).index, 0)
        XCTAssertEqual(try AudioDevice.select("PULSE", from: devices, direction: .output).index, 2)
        XCTAssertEqual(try AudioDevice.select("speaker hat", from: devices, direction: .output).index, 4)
    }

    func testDirectionIsRespected() {
        XCTAssertThrowsError(try AudioDevice.select("usb", from: devices, direction: .output)) { error in
            XCTAssertEqual((error as? AudioError)?.code, "audio-no-device")
        }
        XCTAssertThrowsError(try AudioDevice.select("4", from: devices, direction: .input)) { error in
            XCTAssertEqual((error as? AudioError)?.code, "audio-no-device")
        }
    }

    func testMissingDeviceNamesWhatWasAskedAndWhatExists() {
        XCTAssertThrowsError(try AudioDevice.select("respeaker", from: devices, direction: .input)) { error in
            guard let error = error as? AudioError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.kind, .noDevice)
            XCTAssertEqual(error.stage, .audio)
            XCTAssertTrue(error.message.contains("'respeaker'"), error.message)
            XCTAssertTrue(error.message.contains("1: USB PnP Sound Device"), error.message)
            XCTAssertFalse(
                error.message.contains("Speaker HAT"), "playback-only devices are not offered for input: \(error.message)")
        }
        XCTAssertThrowsError(try AudioDevice.select("default", from: [], direction: .output)) { error in
            XCTAssertEqual((error as? AudioError)?.message, "no audio output device matches 'default'; available: none")
        }
    }

    func testDescriptionShowsDefaults() {
        XCTAssertEqual(devices[3].description, "3: default (ALSA, in 32, out 32, 44100 Hz) [default input, default output]")
        XCTAssertEqual(devices[4].description, "4: Speaker HAT (ALSA, in 0, out 2, 48000 Hz)")
    }
}
