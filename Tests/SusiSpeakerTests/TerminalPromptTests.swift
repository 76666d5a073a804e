import Foundation
import XCTest

@testable import SusiSpeaker

#if canImport(Glibc)
    import Glibc
#endif

/// `susi login`'s prompts when standard input is not a terminal (a pipe or a file).
final class TerminalPromptTests: XCTestCase {
    private var descriptors: [Int32] = []

    override func tearDown() {
        descriptors.forEach { close($0) }
        descriptors = []
    }

    /// A pipe holding `text`, closed for writing; its reading end.
    private func pipe(holding text: String) -> Int32 {
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(Glibc.pipe(&ends), 0)
        _ = text.withCString { write(ends[1], $0, strlen($0)) }
        close(ends[1])
        descriptors.append(ends[0])
        return ends[0]
    }

    func testLinesLoseTheirEndsAndNothingAfterThemIsRead() {
        var prompt = TerminalPrompt()
        prompt.input = pipe(holding: "me@example.com\r\nsecret\n\nlast")
        XCTAssertEqual(prompt.readLine(), "me@example.com")
        XCTAssertEqual(prompt.readLine(), "secret")
        XCTAssertEqual(prompt.readLine(), "")
        XCTAssertEqual(prompt.readLine(), "last")
        XCTAssertNil(prompt.readLine())
    }

    func testWithoutATerminalTheEmailIsReadButNoPasswordAsked() throws {
        var prompt = TerminalPrompt()
        prompt.input = pipe(holding: "me@example.com\nsecret\n")
        XCTAssertEqual(try prompt.ask("email: ", echo: true), "me@example.com")
        XCTAssertThrowsError(try prompt.ask("password: ", echo: false)) { error in
            XCTAssertTrue((error as? LoginInputError)?.message.contains("--password-stdin") ?? false, "\(error)")
        }
        prompt.input = pipe(holding: "")
        XCTAssertThrowsError(try prompt.ask("email: ", echo: true)) { error in
            XCTAssertTrue((error as? LoginInputError)?.message.contains("--email") ?? false, "\(error)")
        }
    }

    func testThePasswordComesFromTheInputOnlyWhenAskedTo() throws {
        var prompt = TerminalPrompt()
        prompt.input = pipe(holding: "s3cret\r\n")
        XCTAssertEqual(try prompt.password(for: "me@example.com", fromInput: true), "s3cret")
        XCTAssertThrowsError(try prompt.password(for: "me@example.com", fromInput: true)) { error in
            XCTAssertEqual((error as? LoginInputError)?.message, "no password on standard input")
        }
        prompt.input = pipe(holding: "s3cret\n")
        XCTAssertThrowsError(try prompt.password(for: "me@example.com", fromInput: false), "no terminal to ask on")
    }
}
