import Foundation
import XCTest

@testable import SusiSpeech

#if canImport(Glibc)
    import Glibc
#endif

/// Standard error caught around a C call, TensorFlow Lite's "INFO:" lines dropped and the
/// rest written back.
final class StandardErrorFilterTests: XCTestCase {
    /// What `body` leaves on standard error, caught in a temporary file.
    private func standardError(_ body: () -> Void) throws -> String {
        let path = NSTemporaryDirectory() + "susi-stderr-\(UUID().uuidString)"
        defer { unlink(path) }
        let file = open(path, O_CREAT | O_RDWR | O_TRUNC, 0o600)
        XCTAssertGreaterThanOrEqual(file, 0)
        let saved = dup(STDERR_FILENO)
        dup2(file, STDERR_FILENO)
        body()
        fflush(nil)
        dup2(saved, STDERR_FILENO)
        close(saved)
        close(file)
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    private func say(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
    }

    func testInfoLinesAreDroppedAndTheRestKept() throws {
        var value = 0
        let left = try standardError {
            say("before\n")
            value = StandardErrorFilter.run(dropping: StandardErrorFilter.isTensorFlowLiteInfo) {
                say("INFO: Created TensorFlow Lite XNNPACK delegate for CPU.\n")
                say("ERROR: real trouble\nWARNING: worth knowing\n")
                say("INFO: more chatter\nno newline at the end")
                return 42
            }
            say("\nafter\n")
        }
        XCTAssertEqual(value, 42)
        XCTAssertEqual(left, "before\nERROR: real trouble\nWARNING: worth knowing\nno newline at the end\nafter\n")
    }

    func testNothingCaughtWritesNothing() throws {
        let left = try standardError {
            StandardErrorFilter.run(dropping: { _ in true }) {}
            say("only this\n")
        }
        XCTAssertEqual(left, "only this\n")
    }
}
