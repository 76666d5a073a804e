import SusiModel
import SusiSpeaker
import SusiSpeech
import XCTest

/// The voice an answer tagged with a language is read in, against the installed eSpeak NG voices.
final class AnswerVoiceTests: XCTestCase {
    func testAnotherLanguageGetsItsVoiceWithTheSameVariantAndRate() throws {
        let catalog = try ESpeakEngine.shared().catalog
        let configured = VoiceSettings(name: "en-gb-scotland", variant: "f3", rate: 150, pitch: 60)
        let german = AnswerVoice.voice(configured, forAnswerIn: "de", catalog: catalog)
        XCTAssertEqual(german, VoiceSettings(name: "de", variant: "f3", rate: 150, pitch: 60))
        XCTAssertEqual(AnswerVoice.voice(configured, forAnswerIn: "en", catalog: catalog), configured)
        XCTAssertEqual(AnswerVoice.voice(configured, forAnswerIn: "en-US", catalog: catalog), configured)
        XCTAssertEqual(AnswerVoice.voice(configured, forAnswerIn: "de-XX", catalog: catalog).name, "de")
        XCTAssertEqual(
            AnswerVoice.voice(configured, forAnswerIn: "qq", catalog: catalog), configured,
            "no voice for the language: the configured one reads it")
        let friendly = VoiceSettings(name: "scottish")
        XCTAssertEqual(
            AnswerVoice.voice(friendly, forAnswerIn: "en", catalog: catalog), friendly,
            "an accent's friendly name is known to speak English")
    }

    func testAGermanAnswerSoundsDifferentFromTheEnglishVoiceReadingIt() throws {
        let engine = try ESpeakEngine.shared()
        let configured = VoiceSettings(name: "en-us")
        func audio(_ voice: VoiceSettings) throws -> [Int16] {
            var samples: [Int16] = []
            _ = try engine.synthesize("Wie spät ist es?", voice: voice) { chunk in
                samples += chunk.samples
                return true
            }
            return samples
        }
        let english = try audio(configured)
        let german = try audio(AnswerVoice.voice(configured, forAnswerIn: "de"))
        XCTAssertFalse(german.isEmpty)
        XCTAssertNotEqual(english, german)
    }

    func testTheNoteIsSaidOncePerLanguage() {
        let notice = LanguageNotice()
        var config = Config()
        XCTAssertNil(notice.note(for: config))
        config.brain.language = "de"
        XCTAssertNotNil(notice.note(for: config))
        XCTAssertNil(notice.note(for: config), "once")
        config.brain.mode = "local"
        XCTAssertNil(notice.note(for: config), "another brain.* change says nothing")
        config.brain.language = "fr"
        XCTAssertTrue(notice.note(for: config)?.contains("'fr'") == true)
    }

    func testRecognitionNoteOnlyForOtherLanguages() {
        var config = Config()
        XCTAssertNil(LanguageSetting.recognitionNote(for: config))
        config.brain.language = "de"
        XCTAssertTrue(LanguageSetting.recognitionNote(for: config)?.contains("English") == true)
        config.stt.whisperModel = "base"
        XCTAssertNil(LanguageSetting.recognitionNote(for: config), "Whisper's multilingual model hears German")
        config.stt.engine = "pocketsphinx"
        XCTAssertTrue(LanguageSetting.recognitionNote(for: config)?.contains("whisper_model base") == true)
    }
}
