import Foundation
import SusiCore
import SusiModel
import XCTest

@testable import SusiSpeech

final class SphinxRecognizerTests: XCTestCase {
    func testDecodesRecordedGoForwardIncrementally() throws {
        let samples = try TestAudio.raw("goforward.raw")
        let recognizer = try SphinxRecognizer()
        try recognizer.start()
        var partials: [String] = []
        var heardSpeech = false
        // Feed 100 ms at a time, as a microphone would.
        for start in stride(from: 0, to: samples.count, by: 1600) {
            try recognizer.process(Array(samples[start..<min(start + 1600, samples.count)]))
            if let partial = recognizer.partial { partials.append(partial) }
            heardSpeech = heardSpeech || recognizer.isInSpeech
        }
        let transcript = try recognizer.finish()
        XCTAssertEqual(transcript.text, "go forward ten meters")
        XCTAssertEqual(transcript.words.map(\.text), ["go", "forward", "ten", "meters"])
        XCTAssertTrue(heardSpeech, "voice activity reported while decoding")
        XCTAssertFalse(partials.isEmpty, "partial hypotheses while audio arrives")
        XCTAssertTrue(partials.contains { $0.hasPrefix("go") && $0 != "go forward ten meters" }, "\(partials)")
        for (word, next) in zip(transcript.words, transcript.words.dropFirst()) {
            XCTAssertLessThan(word.startMilliseconds, word.endMilliseconds)
            XCTAssertLessThanOrEqual(word.endMilliseconds, next.startMilliseconds)
        }
        XCTAssertGreaterThan(transcript.words[0].startMilliseconds, 200, "leading silence is not a word")
        XCTAssertLessThanOrEqual(transcript.words.last?.endMilliseconds ?? .max, samples.count / 16)
        XCTAssertTrue(transcript.words.allSatisfy { (0...1).contains($0.confidence) })
    }

    func testRecognisesSynthesizedHelloWorld() throws {
        // eSpeak NG's output depends a little on what it synthesized before (its pitch
        // flutter runs on across calls), and the generic language model hears "hello world"
        // as "the old world" now and then: only "world" is reliable there.
        let audio = try TestAudio.spoken("hello world")
        let free = try SphinxRecognizer().transcribe(audio)
        XCTAssertTrue(free.words.contains { $0.text == "world" }, free.text)
        let first = try XCTUnwrap(free.words.first)
        XCTAssertGreaterThanOrEqual(first.startMilliseconds, TestAudio.padding - 100, "starts after the padding")

        let commands = try SphinxRecognizer(configuration: SphinxConfiguration(search: .grammar(Self.commandGrammar)))
        XCTAssertEqual(try commands.transcribe(audio).text, "hello world")
    }

    /// A small command grammar standing in for the skills' language model.
    static let commandGrammar = """
        #JSGF V1.0;
        grammar commands;
        public <command> = <move> | <talk> | <question>;
        <move> = (go | turn | move) (forward | back | left | right) [<number> (meters | steps)];
        <number> = one | two | three | four | five | six | seven | eight | nine | ten | twenty;
        <talk> = hello world | hello | good morning | thank you;
        <question> = what time is it | what is the weather | tell me a joke;
        """

    func testAFinishedUtteranceResumesWithAllItsAudio() throws {
        let samples = try TestAudio.raw("goforward.raw")
        let recognizer = try SphinxRecognizer()
        XCTAssertTrue(recognizer.canResume)
        try recognizer.start()
        // Ended halfway, in the pause after "go forward", then resumed with the rest.
        let half = samples.count / 2
        try recognizer.process(Array(samples[..<half]))
        let early = try recognizer.finish()
        XCTAssertEqual(early.text, "go forward")
        try recognizer.resume()
        try recognizer.process(Array(samples[half...]))
        let transcript = try recognizer.finish()
        XCTAssertEqual(transcript.text, "go forward ten meters")
        XCTAssertEqual(recognizer.samplesProcessed, samples.count)

        // A long recording is not kept for resuming.
        try recognizer.start()
        try recognizer.process([Int16](repeating: 0, count: SphinxRecognizer.resumableSamples + 1))
        XCTAssertFalse(recognizer.canResume)
        _ = try recognizer.finish()
        XCTAssertThrowsError(try recognizer.resume())
        try recognizer.start()
        XCTAssertTrue(recognizer.canResume, "each utterance starts resumable")
    }

    func testAResumedUtteranceDecodesAsIfNeverClosed() throws {
        // Without dither, whose random numbers would differ the second time.
        let samples = try TestAudio.raw("goforward.raw")
        var configuration = SphinxConfiguration()
        configuration.dither = false
        let whole = try SphinxRecognizer(configuration: configuration).transcribe(samples)
        let recognizer = try SphinxRecognizer(configuration: configuration)
        try Self.feedWithPause(recognizer, samples)
        let resumed = try recognizer.finish()
        // The same readings, and the same word posteriors but for the front end's noise
        // tracking, which PocketSphinx keeps private (without restoring the cepstral mean,
        // "ten" moves by 0.04 and "go forward ten years" becomes a reading).
        XCTAssertEqual(resumed.readings, whole.readings)
        XCTAssertEqual(resumed.words.count, whole.words.count)
        for (after, before) in zip(resumed.words, whole.words) {
            XCTAssertEqual(after.confidence, before.confidence, accuracy: 0.002, after.text)
        }
    }

    /// Feeds `samples` as one utterance with a pause in the middle: the first half, the final
    /// decoding a pause brings, then the person goes on (`resume`) with the second half.
    private static func feedWithPause(_ recognizer: SphinxRecognizer, _ samples: [Int16]) throws {
        try recognizer.start()
        let half = samples.count / 2
        try recognizer.process(Array(samples[..<half]))
        _ = try recognizer.finish()
        try recognizer.resume()
        try recognizer.process(Array(samples[half...]))
    }

    func testTheSecondSearchHearsTheWholeUtteranceAcrossAPause() throws {
        // The main search knows other sentences only; the second one, the generic model,
        // decodes beside it as the audio comes.
        let samples = try TestAudio.raw("goforward.raw")
        let recognizer = try SphinxRecognizer(configuration: SphinxConfiguration(search: .grammar(Self.greetingGrammar)))
        XCTAssertFalse(recognizer.hasSecondSearch)
        try recognizer.start()
        try recognizer.process(samples)
        _ = try recognizer.finish()
        XCTAssertThrowsError(try recognizer.decodeAgain(), "no second search yet")

        try recognizer.setSecondSearch(SphinxConfiguration())
        XCTAssertTrue(recognizer.hasSecondSearch)
        try Self.feedWithPause(recognizer, samples)
        XCTAssertThrowsError(try recognizer.decodeAgain(), "not during an utterance")
        XCTAssertNotEqual(try recognizer.finish().text, "go forward ten meters")
        // Closed at the pause and reopened on resume: the whole utterance, each word once.
        let again = try recognizer.decodeAgain()
        XCTAssertEqual(again.text, "go forward ten meters")
        XCTAssertEqual(try recognizer.decodeAgain(), again, "kept until the next utterance")

        // The next utterance, whose second decoding nobody asked for, then one that is.
        XCTAssertEqual(try recognizer.transcribe(try TestAudio.spoken("good morning")).text, "good morning")
        try recognizer.start()
        try recognizer.process(Array(samples[..<(samples.count / 2)]))
        _ = try recognizer.finish()
        // The cut falls at the start of "ten", which the generic model may hear as "to".
        let heard = try recognizer.decodeAgain().text
        XCTAssertTrue(heard.hasPrefix("go forward") && !heard.contains("meters"), "this utterance's audio only: \(heard)")

        // A recording too long to keep is not decoded twice.
        try recognizer.start()
        try recognizer.process([Int16](repeating: 0, count: SphinxRecognizer.resumableSamples + 1))
        _ = try recognizer.finish()
        XCTAssertThrowsError(try recognizer.decodeAgain())
    }

    func testTheSecondSearchEndsAtAPauseAndContinuesAsIfNeverClosed() throws {
        // Without dither, whose random numbers would differ the second time.
        let samples = try TestAudio.raw("goforward.raw")
        var generic = SphinxConfiguration()
        generic.dither = false
        func recognizer() throws -> SphinxRecognizer {
            let recognizer = try SphinxRecognizer(configuration: SphinxConfiguration(search: .grammar(Self.greetingGrammar)))
            try recognizer.setSecondSearch(generic)
            return recognizer
        }
        let straight = try recognizer()
        try straight.start()
        try straight.process(samples)
        _ = try straight.finish()
        let whole = try straight.decodeAgain()

        // Its final pass began at the pause, and its reading there was asked for; the person
        // went on, so it decoded the utterance again from the front end's state at its start.
        let paused = try recognizer()
        try paused.start()
        let half = samples.count / 2
        try paused.process(Array(samples[..<half]))
        _ = try paused.finish()
        let atPause = try paused.decodeAgain().text
        XCTAssertTrue(atPause.hasPrefix("go forward") && !atPause.contains("meters"), atPause)
        try paused.resume()
        try paused.process(Array(samples[half...]))
        _ = try paused.finish()
        let resumed = try paused.decodeAgain()
        XCTAssertEqual(resumed.text, "go forward ten meters")
        XCTAssertEqual(resumed.readings, whole.readings)
        for (after, before) in zip(resumed.words, whole.words) {
            XCTAssertEqual(after.confidence, before.confidence, accuracy: 0.002, after.text)
        }
    }

    func testTheBackgroundDecoderReportsQueuedFailuresAtTheEnd() throws {
        let background = try BackgroundDecoder(configuration: SphinxConfiguration(search: .grammar(Self.greetingGrammar)))
        background.process([0, 0, 0])
        XCTAssertThrowsError(try background.finish(), "audio outside an utterance") { error in
            XCTAssertEqual((error as? SpeechError)?.code, "stt-decode-failed")
        }
        background.start(adaptingTo: [])
        background.process(try TestAudio.spoken("good morning"))
        XCTAssertEqual(try background.finish().text, "good morning", "a new utterance starts without the old failure")
    }

    /// Sentences unlike the test recording's, for a main search that cannot hear it.
    static let greetingGrammar = """
        #JSGF V1.0;
        grammar greetings;
        public <greeting> = hello world | good morning | thank you | good night;
        """

    func testRecognisesSynthesizedGoForwardWithACommandGrammar() throws {
        // The generic 5 MB language model hears eSpeak's formant voice saying this as "so far
        // would you use"; the device decodes with a model of the skills' phrasings, which a
        // grammar stands in for here. The Klatt variant is the closest to human speech.
        let recognizer = try SphinxRecognizer(configuration: SphinxConfiguration(search: .grammar(Self.commandGrammar)))
        let voice = VoiceSettings(name: "en-us", variant: "klatt")
        XCTAssertEqual(
            try recognizer.transcribe(try TestAudio.spoken("go forward ten meters", voice: voice)).text,
            "go forward ten meters")
        XCTAssertEqual(
            try recognizer.transcribe(try TestAudio.spoken("what time is it", voice: voice)).text,
            "what time is it")
        // The same recogniser back on the language model, with a recording.
        try recognizer.setSearch(SphinxConfiguration().search)
        XCTAssertEqual(try recognizer.transcribe(try TestAudio.raw("goforward.raw")).text, "go forward ten meters")
    }

    func testOffersOtherReadingsOfTheSameAudio() throws {
        let transcript = try SphinxRecognizer().transcribe(try TestAudio.raw("goforward.raw"))
        XCTAssertEqual(transcript.text, "go forward ten meters")
        XCTAssertFalse(transcript.alternatives.isEmpty, "the lattice has other paths")
        XCTAssertLessThanOrEqual(transcript.alternatives.count, SphinxRecognizer.alternativesLimit)
        XCTAssertFalse(transcript.alternatives.contains(transcript.text), "\(transcript.alternatives)")
        XCTAssertEqual(Set(transcript.alternatives).count, transcript.alternatives.count, "no reading twice")
        for reading in transcript.alternatives {
            XCTAssertFalse(reading.contains("<") || reading.contains("[") || reading.contains("("), reading)
        }
        let second = transcript.command { $0 == transcript.alternatives[0] ? CommandUnderstanding(uncheckedWords: 3) : nil }
        XCTAssertEqual(second.text, transcript.alternatives[0])
        XCTAssertFalse(second.isSure)
        let none = transcript.command { _ in nil }
        XCTAssertEqual(none.text, transcript.text)
        XCTAssertFalse(none.isSure)
    }

    func testReadingsCountTheWordPairsTheirLanguageModelNeverSaw() throws {
        let sentences: [(words: [String], weight: Double)] = [
            (["go", "forward", "ten", "meters"], 1), (["set", "the", "volume", "to", "ten"], 1),
            (["what", "is", "the", "weather"], 1),
        ]
        let arpa = FileManager.default.temporaryDirectory.appendingPathComponent("susi-pairs-\(UUID().uuidString).arpa")
        try NGramModel(sentences: sentences, order: 3).arpa.write(to: arpa, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: arpa) }
        var configuration = SphinxConfiguration(search: .languageModel(path: arpa.path))
        // The model's words only: PocketSphinx takes seconds over all of cmudict with a small model.
        configuration.dictionaryPath = try PronunciationDictionary.writeSubset(
            of: configuration.dictionaryPath, words: Set(sentences.flatMap(\.words)))
        defer { try? FileManager.default.removeItem(atPath: configuration.dictionaryPath) }
        let decoder = try SphinxDecoder(configuration: configuration)
        XCTAssertEqual(decoder.unseenWordPairs(in: ["what", "is", "the", "weather"]), 0, "a sentence of the model")
        XCTAssertEqual(decoder.unseenWordPairs(in: ["set", "the", "weather"]), 0, "pairs from two sentences")
        XCTAssertEqual(decoder.unseenWordPairs(in: ["what", "is", "the", "volume"]), 1, "\"volume\" never ends one")
        XCTAssertEqual(decoder.unseenWordPairs(in: ["volume", "what", "is"]), 3, "<s> volume, volume what, is </s>")
        XCTAssertEqual(decoder.unseenWordPairs(in: ["what", "is", "zebra"]), 2, "a word the model lacks")
        XCTAssertEqual(decoder.unseenWordPairs(in: []), 1, "<s> </s>")

        // The recogniser counts every reading it offers.
        let recognizer = try SphinxRecognizer(configuration: configuration)
        let transcript = try recognizer.transcribe(try TestAudio.raw("goforward.raw"))
        XCTAssertEqual(transcript.text, "go forward ten meters")
        XCTAssertEqual(transcript.unseenWordPairs[transcript.text], 0)
        XCTAssertEqual(Set(transcript.unseenWordPairs.keys), Set(transcript.readings))

        // A grammar has no language model to ask.
        let grammar = try SphinxDecoder(configuration: SphinxConfiguration(search: .grammar(Self.commandGrammar)))
        XCTAssertNil(grammar.unseenWordPairs(in: ["hello", "world"]))
    }

    func testAReadingWhosePairsTheModelNeverSawIsNotSure() {
        let words = ["what", "is", "the", "can", "you", "volume", "up"].map {
            Transcript.Word(text: $0, startMilliseconds: 0, endMilliseconds: 1, confidence: 1)
        }
        let limit = Transcript.unseenWordPairLimit
        var transcript = Transcript(words: words, alternatives: ["volume up"])
        let understood: (String) -> CommandUnderstanding? = { _ in CommandUnderstanding(uncheckedWords: 0) }
        XCTAssertTrue(transcript.command(understanding: understood).isSure, "no count: sure as a skill says")
        transcript.unseenWordPairs = [transcript.text: limit, "volume up": 0]
        XCTAssertTrue(transcript.command(understanding: understood).isSure)
        transcript.unseenWordPairs[transcript.text] = limit + 1
        let command = transcript.command(understanding: understood)
        XCTAssertEqual(command.text, transcript.text, "still the reading a skill understands first")
        XCTAssertFalse(command.isSure, "but heard again by the open-question model")
    }

    func testNeverSearchesTheLatticeMidUtterance() throws {
        // PocketSphinx's N-best on a lattice taken mid-utterance crashed the speaker (issue 17):
        // other readings are offered only once the utterance is finished.
        let samples = try TestAudio.raw("goforward.raw")
        let decoder = try SphinxDecoder(configuration: SphinxConfiguration())
        try decoder.startUtterance()
        for start in stride(from: 0, to: samples.count, by: 1600) {
            try decoder.process(Array(samples[start..<min(start + 1600, samples.count)]))
            XCTAssertEqual(decoder.alternatives(limit: 10).count, 0, "no lattice search at sample \(start)")
        }
        XCTAssertNotNil(decoder.hypothesis, "the best guess so far is still there")
        try decoder.endUtterance()
        XCTAssertFalse(decoder.alternatives(limit: 10).isEmpty, "readings of the finished utterance")
    }

    func testSilenceGivesAnEmptyTranscript() throws {
        let recognizer = try SphinxRecognizer()
        let transcript = try recognizer.transcribe(TestAudio.microphone([Int16](repeating: 0, count: 16_000)))
        XCTAssertTrue(transcript.isEmpty, transcript.text)
        XCTAssertNil(recognizer.partial)
    }

    func testConvertedChunkMustBeSpeechFormat() throws {
        let recognizer = try SphinxRecognizer()
        let chunk = AudioChunk(format: AudioFormat(sampleRate: 22_050, channels: 1), samples: [0, 0])
        XCTAssertThrowsError(try recognizer.transcribe(chunk)) { error in
            XCTAssertEqual((error as? SpeechError)?.code, "stt-format-mismatch")
        }
    }

    func testMissingModelIsReported() throws {
        do {
            _ = try SphinxRecognizer(configuration: SphinxConfiguration(modelDirectory: "/nonexistent/model"))
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error.code, "stt-model-missing")
            XCTAssertEqual(error.stage, .stt)
            XCTAssertTrue(error.message.contains("/nonexistent/model"), error.message)
        }
        var configuration = SphinxConfiguration()
        configuration.search = .languageModel(path: "/nonexistent/lm.bin")
        XCTAssertThrowsError(try SphinxRecognizer(configuration: configuration)) { error in
            XCTAssertEqual((error as? SpeechError)?.code, "stt-model-missing")
        }
    }

    func testBadOptionAndBadGrammarFailToInitialise() throws {
        var configuration = SphinxConfiguration()
        configuration.extraOptions = ["-no-such-option": "1"]
        XCTAssertThrowsError(try SphinxRecognizer(configuration: configuration)) { error in
            XCTAssertEqual((error as? SpeechError)?.code, "stt-init-failed")
        }
        XCTAssertThrowsError(
            try SphinxRecognizer(configuration: SphinxConfiguration(search: .grammar("this is not jsgf")))
        ) { error in
            XCTAssertEqual((error as? SpeechError)?.code, "stt-init-failed")
        }
    }

    func testAddingWordsAndPronunciations() throws {
        let recognizer = try SphinxRecognizer()
        XCTAssertEqual(recognizer.unknownWords(in: "hello zorblax"), ["zorblax"])
        XCTAssertTrue(try recognizer.addWord("zorblax", pronunciation: "z ao r b l ae k s"))
        XCTAssertEqual(recognizer.unknownWords(in: "hello zorblax"), [])
        XCTAssertFalse(try recognizer.addWord("zorblax", pronunciation: "Z AO R B L AE K S"), "already there")

        let dictionaries = try TestAudio.hotwordDictionaries()
        XCTAssertFalse(dictionaries.isEmpty, "models/hotword/*.dict found")
        let decoder = try SphinxDecoder(configuration: SphinxConfiguration(), dictionaries: dictionaries)
        XCTAssertEqual(decoder.pronunciations(of: "susi"), ["S UW S IY", "S UW Z IY", "Z UW Z IY", "S UW Z EY"])

        do {
            _ = try recognizer.addWord("blorp", pronunciation: "B L XX P")
            XCTFail("unknown phone must fail")
        } catch {
            XCTAssertEqual(error.code, "stt-bad-pronunciation")
        }
        XCTAssertThrowsError(try recognizer.addWord("blorp", pronunciation: "  ")) { error in
            XCTAssertEqual((error as? SpeechError)?.code, "stt-bad-pronunciation")
        }
    }

    func testFillersAndAlternateSuffixesAreNotWords() {
        let segments = [
            SphinxDecoder.Segment(word: "<s>", startFrame: 0, endFrame: 9, confidence: 1),
            SphinxDecoder.Segment(word: "read(2)", startFrame: 10, endFrame: 29, confidence: 0.9),
            SphinxDecoder.Segment(word: "<sil>", startFrame: 30, endFrame: 34, confidence: 1),
            SphinxDecoder.Segment(word: "[NOISE]", startFrame: 35, endFrame: 39, confidence: 1),
            SphinxDecoder.Segment(word: "++BREATH++", startFrame: 40, endFrame: 44, confidence: 1),
            SphinxDecoder.Segment(word: "it", startFrame: 45, endFrame: 59, confidence: 0.5),
            SphinxDecoder.Segment(word: "</s>", startFrame: 60, endFrame: 70, confidence: 1),
        ]
        let transcript = SphinxRecognizer.transcript(from: segments, framesPerSecond: 100)
        XCTAssertEqual(transcript.text, "read it")
        XCTAssertEqual(
            transcript.words,
            [
                Transcript.Word(text: "read", startMilliseconds: 100, endMilliseconds: 300, confidence: 0.9),
                Transcript.Word(text: "it", startMilliseconds: 450, endMilliseconds: 600, confidence: 0.5),
            ])
        XCTAssertEqual(SphinxDecoder.baseWord("word(12)"), "word")
        XCTAssertEqual(SphinxDecoder.baseWord("(2)"), "(2)")
        XCTAssertEqual(SphinxDecoder.baseWord("f(x)"), "f(x)")
    }

    func testDictionaryParsing() throws {
        let dictionary = try PronunciationDictionary(
            parsing: "# comment\n;;; also\n\nSusi  s uw s iy\nsusi(2) S UW Z IY\n")
        XCTAssertEqual(
            dictionary.entries,
            [.init(word: "susi", phones: "S UW S IY"), .init(word: "susi", phones: "S UW Z IY")])
        XCTAssertThrowsError(try PronunciationDictionary(parsing: "ok OW K EY\nlonely\n", source: "x.dict")) { error in
            XCTAssertEqual((error as? SpeechError)?.code, "stt-bad-pronunciation")
            XCTAssertTrue((error as? SpeechError)?.message.contains("x.dict:2") ?? false)
        }
        XCTAssertThrowsError(try PronunciationDictionary(contentsOf: "/nonexistent.dict")) { error in
            XCTAssertEqual((error as? SpeechError)?.code, "stt-model-missing")
        }
    }
}
