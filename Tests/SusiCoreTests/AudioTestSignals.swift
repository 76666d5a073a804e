import Foundation
import XCTest

/// Signals and measurements shared by the audio tests.
enum AudioTestSignals {
    /// A sine of `frequency` Hz and peak `amplitude`, `count` samples long, at `rate` Hz.
    static func sine(frequency: Double, rate: Int, count: Int, amplitude: Double = 10_000, phase: Double = 0) -> [Int16] {
        (0..<count).map { n in
            Int16((amplitude * sin(2 * Double.pi * frequency * Double(n) / Double(rate) + phase)).rounded())
        }
    }

    /// A fresh temporary directory, removed when the test ends.
    static func temporaryDirectory(for test: XCTestCase) throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("susi-audio-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        test.addTeardownBlock {
            try? FileManager.default.removeItem(atPath: path)
        }
        return path
    }
}

/// Little-endian byte builder for hand-made WAV files.
struct WAVBytes {
    var bytes: [UInt8] = []

    mutating func text(_ string: String) { bytes.append(contentsOf: Array(string.utf8)) }
    mutating func u16(_ value: Int) {
        let v = UInt16(truncatingIfNeeded: value)
        bytes.append(UInt8(v & 0xFF))
        bytes.append(UInt8(v >> 8))
    }
    mutating func u32(_ value: Int) {
        let v = UInt32(truncatingIfNeeded: value)
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8((v >> UInt32(shift)) & 0xFF)) }
    }

    /// A complete file: RIFF header, optional extra chunks, `fmt ` and `data`.
    static func file(
        tag: Int, channels: Int, rate: Int, bits: Int, data: [UInt8],
        extensibleSubformat: Int? = nil, chunksBefore: [(String, [UInt8])] = [], dataSizeOverride: Int? = nil
    ) -> Data {
        var fmt = WAVBytes()
        let blockAlign = channels * bits / 8
        fmt.u16(extensibleSubformat == nil ? tag : 0xFFFE)
        fmt.u16(channels)
        fmt.u32(rate)
        fmt.u32(rate * blockAlign)
        fmt.u16(blockAlign)
        fmt.u16(bits)
        if let subformat = extensibleSubformat {
            fmt.u16(22)
            fmt.u16(bits)
            fmt.u32(channels == 1 ? 0x4 : 0x3)
            fmt.u16(subformat)
            fmt.bytes.append(contentsOf: [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71])
        }
        var body = WAVBytes()
        body.text("WAVE")
        for (id, content) in chunksBefore {
            body.text(id)
            body.u32(content.count)
            body.bytes.append(contentsOf: content)
            if content.count % 2 == 1 { body.bytes.append(0) }
        }
        body.text("fmt ")
        body.u32(fmt.bytes.count)
        body.bytes.append(contentsOf: fmt.bytes)
        body.text("data")
        body.u32(dataSizeOverride ?? data.count)
        body.bytes.append(contentsOf: data)
        var file = WAVBytes()
        file.text("RIFF")
        file.u32(body.bytes.count)
        file.bytes.append(contentsOf: body.bytes)
        return Data(file.bytes)
    }
}
