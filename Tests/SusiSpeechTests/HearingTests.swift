import Foundation
import SusiModel
import XCTest

@testable import SusiSpeech

/// The skill-generated language model end to end: built from skill files, cached, loaded
/// into PocketSphinx through the factory, and decoding eSpeak NG speech.
final class HearingTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = try TestAudio.directoryWithSomeSkills("susi-hearing")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The skills-only recogniser (`local` mode), so a skill's new phrasing is all that changes.
    private func recognizer() throws -> SphinxRecognizer {
        var config = Config()
        config.brain.mode = "local"
        return try Hearing.makeRecognizer(
            config: config, modelsDirectory: TestAudio.modelsDirectory, skillsDirectory: directory + "/skills",
            cacheDirectory: directory + "/cache")
    }

    func testANewSkillPhrasingBecomesRecognisable() throws {
        let phrase = "water the tomatoes in the greenhouse"
        let audio = try TestAudio.spoken(phrase)
        let before = try recognizer().transcribe(audio).text
        XCTAssertFalse(before.contains("tomatoes"), "the bundled skills do not know it: \(before)")

        let skill =
            "::name Garden\n\nwater the tomatoes|water the * in the greenhouse\nDone.\n!example:water the roses in the greenhouse\n"
        try skill.write(toFile: directory + "/skills/garden.txt", atomically: true, encoding: .utf8)
        let after = try recognizer().transcribe(audio).text
        XCTAssertTrue(after.hasPrefix(phrase), after)
        // Still knows the old skills.
        XCTAssertEqual(try recognizer().transcribe(try TestAudio.spoken("what time is it")).text, "what time is it")
    }

    /// `models/language/accents.dict` reaches the recogniser's dictionary beside cmudict's
    /// pronunciation of the same word.
    func testAccentsPronunciationsJoinTheDictionary() throws {
        XCTAssertTrue(
            PronunciationDictionary.commandDictionaries(modelsDirectory: TestAudio.modelsDirectory).contains {
                $0.hasSuffix("/language/accents.dict")
            })
        try "::name Garden\n\nadd water to the roses\nDone.\n".write(
            toFile: directory + "/skills/garden.txt", atomically: true, encoding: .utf8)
        _ = try recognizer()
        let cache = directory + "/cache"
        let dictionaries = try FileManager.default.contentsOfDirectory(atPath: cache).filter { $0.hasSuffix(".dict") }
        XCTAssertFalse(dictionaries.isEmpty)
        for name in dictionaries {
            let lines = Set(try String(contentsOfFile: cache + "/" + name, encoding: .utf8).split(separator: "\n"))
            XCTAssertTrue(lines.contains("add AE D") && lines.contains("add(2) AA D"), name)
        }
    }

    func testModelIsCachedAndRebuiltWhenSkillsChange() throws {
        let cache = directory + "/cache"
        let first = try SkillLanguageModel.prepare(skillsDirectory: directory + "/skills", cacheDirectory: cache)
        XCTAssertTrue(first.wasBuilt)
        XCTAssertTrue(first.vocabulary.contains("louder"))
        let arpa = try String(contentsOfFile: first.languageModelPath, encoding: .utf8)
        XCTAssertTrue(arpa.contains("\\3-grams:"))
        let second = try SkillLanguageModel.prepare(skillsDirectory: directory + "/skills", cacheDirectory: cache)
        XCTAssertFalse(second.wasBuilt, "same skills: from the cache")
        XCTAssertEqual(second.languageModelPath, first.languageModelPath)

        try "::name Zorp\n\nzorplify the wibbles\nOk.\n".write(
            toFile: directory + "/skills/zorp.txt", atomically: true, encoding: .utf8)
        let third = try SkillLanguageModel.prepare(skillsDirectory: directory + "/skills", cacheDirectory: cache)
        XCTAssertTrue(third.wasBuilt)
        XCTAssertNotEqual(third.languageModelPath, first.languageModelPath)
        XCTAssertFalse(FileManager.default.fileExists(atPath: first.languageModelPath), "the old model is removed")
        let left = try FileManager.default.contentsOfDirectory(atPath: cache).sorted()
        let stem = (third.languageModelPath as NSString).deletingPathExtension.split(separator: "/").last.map(String.init) ?? ""
        XCTAssertEqual(
            left,
            ["", "."].flatMap { dot in ["arpa", "dict", "json"].map { dot + stem + "." + $0 + (dot.isEmpty ? "" : ".lock") } }
                .sorted(),
            "the new model's files and their write locks only: no old lock, no temporary")
        // Words cmudict lacks get eSpeak NG's pronunciation, so they can be recognised.
        XCTAssertNotNil(third.generatedPronunciations["zorplify"])
        let dictionary = try PronunciationDictionary(contentsOf: third.dictionaryPath)
        for word in third.vocabulary { XCTAssertFalse(dictionary.pronunciations(of: word).isEmpty, word) }
    }

    func testNoiseFloorFillsDigitalSilenceOnly() {
        let floor = NoiseFloor(signalToNoiseDecibels: 30)
        let silent = floor.process([Int16](repeating: 0, count: 3200))
        XCTAssertGreaterThan(TestAudio.rms(silent), 40, "digital silence gets a floor")
        XCTAssertLessThan(TestAudio.rms(silent), 300)
        var generator = NoiseGenerator(seed: 3)
        let noisy = (0..<16_000).map { _ in Int16(generator.next(amplitude: 2000)) }
        XCTAssertTrue(
            NoiseFloor(signalToNoiseDecibels: 30).process(noisy).suffix(8000) == noisy.suffix(8000), "noisy input passes")
    }

    /// Digital silence gets a room's brown floor, most of its energy under 100 Hz: sample to
    /// sample it changes by a fraction of its level, where white noise changes by 1.4 times
    /// its level. A faint noise already there (a microphone's) is topped up with white noise.
    func testNoiseFloorIsBrownUnderDigitalSilenceAndWhiteOverNoise() {
        func changeRatio(_ samples: [Int16]) -> Double {
            let changes = zip(samples.dropFirst(), samples).map { Int16(clamping: Int($0) - Int($1)) }
            return TestAudio.rms(changes) / TestAudio.rms(samples)
        }
        let silent = NoiseFloor(signalToNoiseDecibels: 30).process([Int16](repeating: 0, count: 16_000))
        XCTAssertGreaterThan(TestAudio.rms(silent), 40)
        XCTAssertLessThan(changeRatio(silent), 0.5, "brown under digital silence")
        var generator = NoiseGenerator(seed: 5)
        let faint = (0..<16_000).map { _ in Int16(generator.next(amplitude: 40)) }
        let toppedUp = NoiseFloor(signalToNoiseDecibels: 30).process(faint)
        XCTAssertGreaterThan(TestAudio.rms(toppedUp), 2 * TestAudio.rms(faint), "faint noise is topped up")
        XCTAssertGreaterThan(changeRatio(toppedUp), 1.2, "white over a noise already there")
    }

    func testSpeexPreprocessorSuppressesSteadyNoise() throws {
        let preprocessor = try SpeexPreprocessor()
        var generator = NoiseGenerator(seed: 5)
        let noise = (0..<32_000).map { _ in Int16(generator.next(amplitude: 1000)) }
        var output: [Int16] = []
        for start in stride(from: 0, to: noise.count, by: 1000) {
            output += preprocessor.process(Array(noise[start..<min(noise.count, start + 1000)]))
        }
        output += preprocessor.flush()
        XCTAssertEqual(output.count, noise.count, "every sample comes out")
        XCTAssertLessThan(TestAudio.rms(Array(output.suffix(8000))), TestAudio.rms(noise) / 2, "noise attenuated")
    }

    /// The keyphrase engine's config (the neural one has its own tests).
    private func keyphraseConfig() -> Config {
        var config = Config()
        config.hotword.engine = "pocketsphinx"
        return config
    }

    func testVerifiedWakeDetectorWakesOnTheNameOnly() throws {
        try assertWakesOnTheNameOnly(config: keyphraseConfig())
    }

    func testVerifierWithAReadingsMarginStillWakesOnTheNameOnly() throws {
        var config = keyphraseConfig()
        config.hotword.verifyMargin = 100
        XCTAssertEqual(Hearing.Settings(config: config).wakeVerifierMargin, 100)
        try assertWakesOnTheNameOnly(config: config)
    }

    func testVerifierMarginAcceptsThePhraseInNearReadingsOnly() {
        let readings = [(text: "see you", score: -1000), (text: "susi(2) you", score: -1080), (text: "susi", score: -1400)]
        XCTAssertFalse(VerifiedWakeWordDetector.holds(readings, ["susi"], margin: 0))
        XCTAssertFalse(VerifiedWakeWordDetector.holds(readings, ["susi"], margin: 50))
        XCTAssertTrue(VerifiedWakeWordDetector.holds(readings, ["susi"], margin: 100), "an alternate pronunciation counts")
        XCTAssertFalse(VerifiedWakeWordDetector.holds(readings, ["hey", "susi"], margin: 1000))
        XCTAssertFalse(VerifiedWakeWordDetector.holds([], ["susi"], margin: 100))
    }

    func testVerifierWakesOnANameSaidQuicklyInOneBreath() throws {
        // At 230 words per minute the spotter places "susi" in about 220 ms: short, but not as
        // short as ordinary speech squeezed into "susi".
        var voice = VoiceSettings()
        voice.rate = 230
        for text in ["susi what time is it", "susi tell me a joke"] {
            let wake = try Hearing.makeWakeDetector(config: keyphraseConfig(), modelsDirectory: TestAudio.modelsDirectory)
            let audio = try TestAudio.spoken(text, voice: voice)
            var found: [WakeWordDetection] = []
            for start in stride(from: 0, to: audio.count, by: 1600) {
                found += try wake.process(Array(audio[start..<min(audio.count, start + 1600)]))
            }
            XCTAssertEqual(found.count, 1, text)
        }
    }

    private func assertWakesOnTheNameOnly(config: Config, file: StaticString = #filePath, line: UInt = #line) throws {
        let wake = try Hearing.makeWakeDetector(config: config, modelsDirectory: TestAudio.modelsDirectory)
        XCTAssertTrue(wake is VerifiedWakeWordDetector, file: file, line: line)
        var heard: [WakeWordDetection] = []
        let sentences = [
            "susi what time is it", "the sun is shining and the sea is blue", "she sells sea shells by the sea shore",
            "see you soon", "who is susan",
        ]
        for text in sentences {
            let audio = try TestAudio.spoken(text)
            var found: [WakeWordDetection] = []
            for start in stride(from: 0, to: audio.count, by: 1600) {
                let now = try wake.process(Array(audio[start..<min(audio.count, start + 1600)]))
                for detection in now {
                    // Checked only once the audio after the phrase has arrived.
                    XCTAssertGreaterThanOrEqual(wake.position, detection.endMilliseconds + 200)
                    XCTAssertGreaterThanOrEqual(detection.endMilliseconds - detection.startMilliseconds, 4 * 50)
                }
                found += now
            }
            heard.append(contentsOf: found)
            XCTAssertEqual(found.count, text.hasPrefix("susi") ? 1 : 0, text, file: file, line: line)
        }
        XCTAssertEqual(heard.first?.phrase, "susi", file: file, line: line)
    }
}
