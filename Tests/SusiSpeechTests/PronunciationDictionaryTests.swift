import Foundation
import XCTest

@testable import SusiSpeech

/// `PronunciationDictionary.writeSubset`: the lines of a few words, from cmudict or any
/// CMU-format file.
final class PronunciationDictionaryTests: XCTestCase {
    func testASubsetKeepsTheWordsLinesWithTheirAlternatesInFileOrder() throws {
        let source = FileManager.default.temporaryDirectory.appendingPathComponent("susi-subset-\(UUID().uuidString).dict")
        defer { try? FileManager.default.removeItem(at: source) }
        let text = [
            "hello HH AH L OW", "hello(2) HH EH L OW", "", "no-space-here", "SUSI S UW S IY", "susie S UW Z IY",
            "world W ER L D", "zoo Z UW",
        ].joined(separator: "\n")
        try Data(text.utf8).write(to: source)
        let subset = try PronunciationDictionary.writeSubset(of: source.path, words: ["hello", "susi", "zoo"])
        defer { try? FileManager.default.removeItem(atPath: subset) }
        let written = try String(contentsOfFile: subset, encoding: .utf8)
        XCTAssertEqual(
            written, "hello HH AH L OW\nhello(2) HH EH L OW\nSUSI S UW S IY\nzoo Z UW\n", "the last line had no newline")
        XCTAssertEqual(try PronunciationDictionary(contentsOf: subset).pronunciations(of: "hello").count, 2)
    }

    func testTheWakeWordsOfCmudictAreFound() throws {
        let cmudict = SphinxConfiguration().dictionaryPath
        let subset = try PronunciationDictionary.writeSubset(of: cmudict, words: ["hey", "computer", "notaword"])
        defer { try? FileManager.default.removeItem(atPath: subset) }
        let entries = try PronunciationDictionary(contentsOf: subset).entries
        XCTAssertEqual(Set(entries.map(\.word)), ["hey", "computer"])
        XCTAssertThrowsError(try PronunciationDictionary.writeSubset(of: "/nonexistent/cmudict.dict", words: ["hey"]))
    }
}
