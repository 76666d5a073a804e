import Foundation
import SusiCore
import XCTest

@testable import SusiSpeech

final class SphinxRecognizerTests: XCTestCase {
    func testDecodesRecordedGoForward() throws {
        let samples = try TestAudio.raw("goforward.raw")
        let recognizer = try SphinxRecognizer()
        try recognizer.start()
        var partials: [String] = []
        // Feed 100 ms at a time, as a microphone would.
        for start in stride(from: 0, to: samples.count, by: 1600) {
            try recognizer.process(Array(samples[start..<min(start + 1600, samples.count)]))
            if let partial = recognizer.partial { partials.append(partial) }
        }
        let transcript = try recognizer.finish()
        XCTAssertEqual(transcript.text, "go forward ten meters")
        XCTAssertEqual(transcript.words.map(\.text), ["go", "forward", "ten", "meters"])
        XCTAssertFalse(partials.isEmpty, "partial hypotheses while audio arrives")
        for (word, next) in zip(transcript.words, transcript.words.dropFirst()) {
            XCTAssertLessThan(word.startMilliseconds, word.endMilliseconds)
            XCTAssertLessThanOrEqual(word.endMilliseconds, next.startMilliseconds)
        }
        XCTAssertGreaterThan(transcript.words[0].startMilliseconds, 200, "leading silence is not a word")
        XCTAssertLessThanOrEqual(transcript.words.last?.endMilliseconds ?? .max, samples.count / 16)
        XCTAssertTrue(transcript.words.allSatisfy { (0...1).contains($0.confidence) })
    }
}
