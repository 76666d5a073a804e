import Foundation
import SusiCore
import XCTest

/// Audio for the tests: PocketSphinx's recorded test data and helpers to make synthesized
/// speech look like a microphone's.
enum TestAudio {
    static let dataDirectory = "/usr/share/pocketsphinx/test/data"

    /// A raw 16 kHz s16le file from `pocketsphinx-testdata`.
    static func raw(_ name: String) throws -> [Int16] {
        let path = "\(dataDirectory)/\(name)"
        guard let data = FileManager.default.contents(atPath: path) else {
            throw XCTSkip("\(path) missing: install pocketsphinx-testdata")
        }
        return data.withUnsafeBytes { bytes in
            (0..<data.count / 2).map { Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: $0 * 2, as: Int16.self)) }
        }
    }
}
