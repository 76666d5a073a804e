import SusiSpeech
import XCTest

@testable import SusiSpeaker

/// `susi language set`: the voice chosen for a language, against the installed eSpeak NG voices.
final class LanguageSettingTests: XCTestCase {
    private var scratch: ScratchConfig!

    override func setUpWithError() throws {
        scratch = try ScratchConfig()
    }

    override func tearDown() {
        scratch.remove()
    }

    private func set(_ language: String) throws -> String {
        try LanguageSetting.apply(language, store: scratch.store, catalog: try ESpeakEngine.shared().catalog).tts.voice
    }

    /// Issue 51: en-us, then German, then English again is en-us, not eSpeak NG's own English
    /// voice (en-gb).
    func testBackToEnglishIsTheVoiceBefore() throws {
        XCTAssertEqual(try scratch.store.loadOrCreate().tts.voice, "en-us")
        XCTAssertEqual(try set("de"), "de")
        XCTAssertEqual(try set("en"), "en-us")
        XCTAssertEqual(try scratch.store.load().brain.language, "en")
    }

    /// The owner's own accent comes back too, once German has come and gone.
    func testTheOwnersAccentComesBack() throws {
        _ = try scratch.store.set("tts.voice", to: "en-gb-scotland")
        XCTAssertEqual(try set("de"), "de")
        XCTAssertEqual(try set("fr"), "fr-fr")
        XCTAssertEqual(try set("en"), "en-gb-scotland")
    }

    /// With no voice kept for the language, English gets the default voice, others eSpeak
    /// NG's voice of the language.
    func testWithoutAKeptVoiceTheDefault() throws {
        let catalog = try ESpeakEngine.shared().catalog
        XCTAssertEqual(LanguageSetting.voice(for: "en", configured: "de", catalog: catalog), "en-us")
        XCTAssertEqual(LanguageSetting.voice(for: "de", configured: "en-us", catalog: catalog), "de")
        XCTAssertEqual(
            LanguageSetting.voice(for: "en", configured: "de", remembered: "en-gb-x-rp", catalog: catalog), "en-gb-x-rp")
        XCTAssertEqual(
            LanguageSetting.voice(for: "en", configured: "de", remembered: "fr", catalog: catalog), "en-us",
            "a kept voice that does not speak the language is not used")
    }
}
