import Foundation
import SusiCore
import XCTest

@testable import SusiSpeech

final class SphinxWakeWordDetectorTests: XCTestCase {
    private func detector(threshold: Double = Keyphrase.defaultThreshold) throws -> SphinxWakeWordDetector {
        try SphinxWakeWordDetector(
            keyphrases: [Keyphrase("susi", threshold: threshold)], dictionaries: TestAudio.hotwordDictionaries())
    }

    /// Feeds `samples` 100 ms at a time, as a microphone would.
    private func detections(in samples: [Int16], detector: SphinxWakeWordDetector) throws -> [WakeWordDetection] {
        var found: [WakeWordDetection] = []
        for start in stride(from: 0, to: samples.count, by: 1600) {
            found += try detector.process(Array(samples[start..<min(start + 1600, samples.count)]))
        }
        return found
    }

    func testFindsSusiBeforeTheCommandAndTheCommandIsRecognisedFromItsEnd() throws {
        let audio = try TestAudio.spoken("susi what time is it")
        let detector = try detector()
        let found = try detections(in: audio, detector: detector)
        XCTAssertEqual(found.count, 1, "\(found)")
        let detection = try XCTUnwrap(found.first)
        XCTAssertEqual(detection.phrase, "susi")
        XCTAssertEqual(detector.position, audio.count / 16)

        // "susi" alone lasts this long; the detection must end about there, before "what".
        let susiAlone = try ESpeakEngine.shared().synthesizeAll("susi", voice: VoiceSettings()).milliseconds
        XCTAssertGreaterThanOrEqual(detection.startMilliseconds, TestAudio.padding - 150)
        XCTAssertLessThan(detection.startMilliseconds, detection.endMilliseconds)
        XCTAssertLessThanOrEqual(detection.endMilliseconds, TestAudio.padding + susiAlone + 150)
        XCTAssertGreaterThanOrEqual(detection.decidedAtMilliseconds, detection.endMilliseconds)

        // The command starts where the wake word ended: decoding from there hears no "susi".
        // The generic language model, given no lead-in, gets the start right ("what") but not
        // always the rest; a grammar of commands gets all of it.
        let command = Array(audio[(detection.endMilliseconds * 16)...])
        let free = try SphinxRecognizer().transcribe(command)
        XCTAssertEqual(free.words.first?.text, "what", free.text)
        XCTAssertFalse(free.words.contains { $0.text == "susi" }, free.text)
        let grammar = "#JSGF V1.0; grammar c; public <c> = what time is it | what is the weather | susi | stop;"
        let commands = try SphinxRecognizer(configuration: SphinxConfiguration(search: .grammar(grammar)))
        XCTAssertEqual(try commands.transcribe(command).text, "what time is it")
    }

    func testIgnoresSentencesWithoutSusi() throws {
        let detector = try detector()
        for sentence in ["the weather is nice today", "what time is it", "play some music please", "see you soon"] {
            XCTAssertEqual(try detections(in: try TestAudio.spoken(sentence), detector: detector), [], sentence)
        }
    }

    func testFindsSusiInOtherAccents() throws {
        let detector = try detector()
        for voice in ["en-gb", "en-gb-scotland", "en-us-nyc"] {
            let audio = try TestAudio.spoken("susi set a timer", voice: VoiceSettings(name: voice))
            XCTAssertEqual(try detections(in: audio, detector: detector).map(\.phrase), ["susi"], voice)
        }
    }

    func testDetectsAgainAfterADetection() throws {
        let detector = try detector()
        let first = try TestAudio.spoken("susi stop the music")
        let second = try TestAudio.spoken("hey susi what is the weather")
        let found = try detections(in: first + second, detector: detector)
        XCTAssertEqual(found.map(\.phrase), ["susi", "susi"])
        guard found.count == 2 else { return }
        XCTAssertGreaterThan(found[1].startMilliseconds, first.count / 16, "second one is in the second sentence")
    }

    func testStockThresholdOfOneNeverFires() throws {
        let detector = try detector(threshold: 1)
        XCTAssertEqual(try detections(in: try TestAudio.spoken("susi what time is it"), detector: detector), [])
    }

    func testUnknownPhraseWordAndBadSetupFailInTheWakeStage() throws {
        do {
            _ = try SphinxWakeWordDetector(keyphrases: [Keyphrase("hey zorblax")])
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error.code, "wake-unknown-word")
            XCTAssertEqual(error.stage, .wake)
            XCTAssertTrue(error.message.contains("zorblax"), error.message)
        }
        XCTAssertThrowsError(
            try SphinxWakeWordDetector(configuration: SphinxConfiguration(modelDirectory: "/nonexistent"))
        ) { error in
            XCTAssertEqual((error as? SpeechError)?.code, "wake-init-failed")
        }
        XCTAssertThrowsError(try SphinxWakeWordDetector(keyphrases: [])) { error in
            XCTAssertEqual((error as? SpeechError)?.code, "wake-init-failed")
        }
        XCTAssertThrowsError(try SphinxWakeWordDetector(keyphrases: [Keyphrase("susi", threshold: 0)])) { error in
            XCTAssertEqual((error as? SpeechError)?.code, "wake-init-failed")
        }
    }

    func testKeyphraseNormalisesItsText() {
        XCTAssertEqual(Keyphrase("  Hey   SUSI ").phrase, "hey susi")
        XCTAssertEqual(Keyphrase("hey susi").words, ["hey", "susi"])
    }
}
