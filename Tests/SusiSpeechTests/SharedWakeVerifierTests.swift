import Foundation
import SusiModel
import XCTest

@testable import SusiSpeech

/// The wake verifier decoding with the recogniser's decoder (one acoustic model for both):
/// it still confirms the name and rejects other words, leaves the recogniser as it was, and
/// turns misuse into errors.
final class SharedWakeVerifierTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = try TestAudio.directoryWithSomeSkills("susi-shared-verifier")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func recognizer(shareWakeVerifier: Bool = true) throws -> SphinxRecognizer {
        var config = Config()
        config.brain.mode = "local"
        var settings = Hearing.Settings(config: config)
        settings.shareWakeVerifier = shareWakeVerifier
        return try Hearing.makeRecognizer(
            config: config, modelsDirectory: TestAudio.modelsDirectory, skillsDirectory: directory + "/skills",
            cacheDirectory: directory + "/cache", settings: settings)
    }

    /// Reports nothing: the verifier's own decoding is what is tested.
    private final class Silent: WakeWordDetector {
        var position = 0
        func process(_ samples: [Int16]) throws -> [WakeWordDetection] { [] }
        func reset() throws {}
    }

    private func sharedVerifier(_ host: SphinxRecognizer) throws -> VerifiedWakeWordDetector {
        try VerifiedWakeWordDetector(
            candidates: Silent(), phrase: "susi", phoneCount: 0, host: host,
            phrasePrior: Hearing.defaultVerifierPrior)
    }

    private func ownVerifier() throws -> VerifiedWakeWordDetector {
        try VerifiedWakeWordDetector(
            candidates: Silent(), phrase: "susi", phoneCount: 0, dictionaries: TestAudio.hotwordDictionaries(),
            phrasePrior: Hearing.defaultVerifierPrior)
    }

    func testSharedVerifierHearsTheNameAndRejectsOtherWordsAsItsOwnDecoderDoes() throws {
        let host = try recognizer()
        let shared = try sharedVerifier(host)
        let own = try ownVerifier()
        let sentences: [(text: String, name: Bool?)] = [
            ("susi", true), ("hey susi", true), ("see you soon", false), ("who is susan", false),
            // Decoded whole, without the spotter's timing: "susi" for both, or for neither.
            ("she sells sea shells", nil),
        ]
        for (text, name) in sentences {
            let audio = try TestAudio.spoken(text)
            let sharedWords = try shared.decode(audio)
            XCTAssertFalse(sharedWords.contains { $0.hasPrefix("_") }, "no prefixed word leaks: \(sharedWords)")
            let heard = VerifiedWakeWordDetector.contains(sharedWords, ["susi"])
            if let name { XCTAssertEqual(heard, name, "\(text): \(sharedWords)") }
            XCTAssertEqual(
                heard, VerifiedWakeWordDetector.contains(try own.decode(audio), ["susi"]), "same decision as alone: \(text)")
        }
    }

    /// Reports one candidate, for the name in `audio` that ends at `endMilliseconds`.
    private final class Once: WakeWordDetector {
        var position = 0
        let endMilliseconds: Int
        var reported = false
        init(endMilliseconds: Int) { self.endMilliseconds = endMilliseconds }
        func process(_ samples: [Int16]) throws -> [WakeWordDetection] {
            position += samples.count / 16
            guard !reported, position >= endMilliseconds + 20 else { return [] }
            reported = true
            return [
                WakeWordDetection(
                    phrase: "susi", startMilliseconds: 0, endMilliseconds: endMilliseconds,
                    decidedAtMilliseconds: endMilliseconds + 20)
            ]
        }
        func reset() throws {}
    }

    /// A confirmed candidate was decided once the audio the check needs had arrived (200 ms
    /// after the name), however much more came with it; a trusted one when it was decided.
    func testAConfirmedCandidateIsDecidedWhenItsCheckCouldRun() throws {
        let name = try TestAudio.spoken("susi")
        let audio = name + [Int16](repeating: 0, count: 16_000)
        let end = name.count / 16
        for trusted in [false, true] {
            let verifier = try VerifiedWakeWordDetector(
                candidates: Once(endMilliseconds: end), phrase: "susi", phoneCount: 0,
                dictionaries: TestAudio.hotwordDictionaries(), phrasePrior: Hearing.defaultVerifierPrior,
                trusted: { _ in trusted })
            let detection = try XCTUnwrap(try verifier.process(audio).first, "trusted: \(trusted)")
            XCTAssertEqual(detection.decidedAtMilliseconds, end + (trusted ? 20 : 200), "trusted: \(trusted)")
        }
    }

    /// A candidate waiting for the audio after it makes its check the next decision: it is
    /// confirmed on the last sample of that audio, not before.
    func testItsNextDecisionIsAWaitingCandidatesCheck() throws {
        let name = try TestAudio.spoken("susi")
        let audio = name + [Int16](repeating: 0, count: 16_000)
        let end = name.count / 16
        let verifier = try VerifiedWakeWordDetector(
            candidates: Once(endMilliseconds: end), phrase: "susi", phoneCount: 0,
            dictionaries: TestAudio.hotwordDictionaries(), phrasePrior: Hearing.defaultVerifierPrior)
        var fed = 0
        while verifier.framesToNextDecision == nil, fed < audio.count {
            XCTAssertEqual(try verifier.process(Array(audio[fed..<(fed + 320)])), [])
            fed += 320
        }
        let frames = try XCTUnwrap(verifier.framesToNextDecision)
        XCTAssertEqual(fed + frames, end * 16 + 3200, "200 ms after the name")
        XCTAssertEqual(try verifier.process(Array(audio[fed..<(fed + frames - 1)])), [])
        XCTAssertEqual(try verifier.process([audio[fed + frames - 1]]).map(\.phrase), ["susi"])
        XCTAssertNil(verifier.framesToNextDecision, "nothing waiting, a spotter that decides anywhere")
    }

    func testWakeDetectorMadeWithAHostWakesOnTheNameOnly() throws {
        var config = Config()
        config.hotword.engine = "pocketsphinx"
        let host = try recognizer()
        let wake = try Hearing.makeWakeDetector(config: config, modelsDirectory: TestAudio.modelsDirectory, host: host)
        XCTAssertTrue(wake is VerifiedWakeWordDetector)
        for text in ["susi what time is it", "she sells sea shells by the sea shore", "see you soon", "who is susan"] {
            let audio = try TestAudio.spoken(text)
            var found: [WakeWordDetection] = []
            for start in stride(from: 0, to: audio.count, by: 1600) {
                found += try wake.process(Array(audio[start..<min(audio.count, start + 1600)]))
            }
            XCTAssertEqual(found.count, text.hasPrefix("susi") ? 1 : 0, text)
        }
    }

    func testRecogniserHearsAsWithoutTheVerifierAndKeepsItsCepstralMean() throws {
        let command = try TestAudio.spoken("what time is it")
        // The verifier's search, words and options leave the main search as it was. (Each
        // decodes right after it is made: the dither noise comes from one generator for the
        // whole process, seeded as a decoder is made.)
        let plain = try recognizer(shareWakeVerifier: false)
        XCTAssertTrue(plain.decoder.sideSearchNames.isEmpty)
        let expected = try plain.transcribe(command)
        let plainReadings = plain.decoder.alternatives(limit: 10)
        let host = try recognizer()
        XCTAssertTrue(host.decoder.sideSearchNames.contains { $0.hasPrefix("wake-verifier") })
        XCTAssertEqual(try host.transcribe(command).text, expected.text)
        let readings = host.decoder.alternatives(limit: 10)
        XCTAssertGreaterThan(readings.count, 1, "the main search still builds its lattice (-bestpath)")
        XCTAssertEqual(plainReadings.map(\.text), readings.map(\.text))
        XCTAssertEqual(plainReadings.map(\.score), readings.map(\.score), "same -lw, same scores")

        let verifier = try sharedVerifier(host)
        let before = host.decoder.frontEndState
        XCTAssertTrue(VerifiedWakeWordDetector.contains(try verifier.decode(try TestAudio.spoken("susi")), ["susi"]))
        XCTAssertEqual(host.decoder.frontEndState, before, "the recogniser's cepstral mean is put back")
        XCTAssertEqual(try host.transcribe(command).text, expected.text)
    }

    func testAnUtteranceLeftOpenIsEndedAndTheRecogniserFailsWithAnErrorNotACrash() throws {
        let host = try recognizer()
        let verifier = try sharedVerifier(host)
        try host.start()
        try host.process(try TestAudio.spoken("what time"))
        // An error left the recogniser's utterance open; the verifier still works.
        XCTAssertTrue(VerifiedWakeWordDetector.contains(try verifier.decode(try TestAudio.spoken("susi")), ["susi"]))
        XCTAssertThrowsError(try host.process(try TestAudio.spoken("is it"))) { error in
            XCTAssertEqual((error as? SpeechError)?.code, "stt-decode-failed")
        }
        XCTAssertEqual(try host.transcribe(try TestAudio.spoken("what time is it")).text, "what time is it")
    }

    func testMisuseIsAnError() throws {
        let plain = try recognizer(shareWakeVerifier: false)
        XCTAssertThrowsError(try sharedVerifier(plain)) { error in
            XCTAssertEqual((error as? SpeechError)?.code, "wake-init-failed")
        }
        var state: SphinxDecoder.FrontEndState?
        XCTAssertThrowsError(try plain.decoder.withSearch("nothing", frontEnd: &state) { _ in 1 }) { error in
            XCTAssertEqual((error as? SpeechError)?.code, "stt-init-failed")
        }
        let grammar = SphinxConfiguration.Search.grammar("#JSGF V1.0; grammar g; public <c> = yes | no;")
        for options in [["-topn": "2"], ["-hmm": "/tmp"], ["-nonsense": "1"]] {
            XCTAssertThrowsError(
                try SphinxDecoder(
                    configuration: SphinxConfiguration(search: grammar),
                    sideSearches: [SphinxDecoder.SideSearch(name: "side", search: grammar, options: options)])
            ) { error in
                XCTAssertEqual((error as? SpeechError)?.code, "stt-init-failed", "\(options)")
            }
        }
        XCTAssertThrowsError(
            try SphinxDecoder(
                configuration: SphinxConfiguration(search: grammar),
                sideSearches: [
                    SphinxDecoder.SideSearch(name: "side", search: grammar),
                    SphinxDecoder.SideSearch(name: "side", search: grammar),
                ])
        ) { error in
            XCTAssertEqual((error as? SpeechError)?.code, "stt-init-failed", "a name twice")
        }
        // A search's body that fails leaves the main search in place.
        let decoder = try SphinxDecoder(
            configuration: SphinxConfiguration(search: grammar),
            sideSearches: [SphinxDecoder.SideSearch(name: "side", search: grammar, options: ["-lw": "2"])])
        XCTAssertThrowsError(
            try decoder.withSearch("side", frontEnd: &state) { decoder throws(SpeechError) in try decoder.process([0]) })
        XCTAssertFalse(decoder.isInUtterance)
        try decoder.startUtterance()
        try decoder.process(try TestAudio.spoken("yes"))
        try decoder.endUtterance()
        XCTAssertEqual(decoder.hypothesis, "yes")
    }
}
