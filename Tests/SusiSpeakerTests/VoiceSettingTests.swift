import Foundation
import SusiCore
import SusiSpeech
import XCTest

@testable import SusiSpeaker

/// `susi voice list|set` and `susi say` with the installed eSpeak NG.
final class VoiceSettingTests: XCTestCase {
    private var scratch: ScratchConfig!

    override func setUpWithError() throws {
        scratch = try ScratchConfig()
    }

    override func tearDown() {
        scratch.remove()
    }

    func testTheListingHasTheVoicesThenAccentsAndVariants() throws {
        let lines = VoiceSetting.listing(try ESpeakEngine.shared().catalog)
        XCTAssertTrue(lines.contains { $0.hasPrefix("en-us") && $0.contains("(") }, "\(lines.prefix(5))")
        XCTAssertTrue(try XCTUnwrap(lines.dropLast().last).hasPrefix("accents: "))
        XCTAssertTrue(try XCTUnwrap(lines.last).hasPrefix("variants: ") && lines.last?.contains("f3") == true)
    }

    func testAnAccentSetsItsVoiceAndAVariantComesAlong() throws {
        let catalog = try ESpeakEngine.shared().catalog
        let config = try VoiceSetting.apply("scottish", variant: "f3", store: scratch.store, catalog: catalog)
        XCTAssertEqual(config.tts.voice, "en-gb-scotland")
        XCTAssertEqual(config.tts.variant, "f3")
        XCTAssertEqual(try scratch.store.load().tts.voice, "en-gb-scotland", "saved")
        XCTAssertThrowsError(try VoiceSetting.apply("vulcan", variant: nil, store: scratch.store, catalog: catalog)) {
            XCTAssertEqual(($0 as? SynthesisError)?.code, "tts-unknown-voice")
        }
    }

    func testSayWritesAWAVAndAnUnknownVoiceWritesNothing() throws {
        let config = try scratch.store.load()
        let path = scratch.directory + "/said.wav"
        let milliseconds = try XCTUnwrap(
            try SpeechOutput.say("hello there", config: config, voiceName: "british", variant: nil, output: path, logger: .silent)
        )
        XCTAssertGreaterThan(milliseconds, 300)
        let audio = try WAVFile.read(path: path)
        XCTAssertEqual(audio.frameCount * 1000 / audio.format.sampleRate, milliseconds)
        let missing = scratch.directory + "/never.wav"
        XCTAssertThrowsError(
            try SpeechOutput.say("hello", config: config, voiceName: "vulcan", variant: nil, output: missing, logger: .silent))
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing))
    }
}
