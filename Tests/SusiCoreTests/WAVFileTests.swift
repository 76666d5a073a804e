import Foundation
import SusiCore
import XCTest

final class WAVFileTests: XCTestCase {
    private func decode(_ data: Data) throws -> AudioChunk {
        try WAVFile.decode(data).chunk
    }

    private func assertAudioError(
        _ kind: AudioError.Kind, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void
    ) {
        do {
            try body()
            XCTFail("expected \(kind.rawValue), got success", file: file, line: line)
        } catch let error as AudioError {
            XCTAssertEqual(error.kind, kind, error.message, file: file, line: line)
            XCTAssertEqual(error.code, kind.rawValue, file: file, line: line)
            XCTAssertEqual(error.stage, .audio, file: file, line: line)
        } catch {
            XCTFail("expected AudioError, got \(error)", file: file, line: line)
        }
    }

    func testRoundTripMonoAndStereoThroughFile() throws {
        let directory = try AudioTestSignals.temporaryDirectory(for: self)
        for format in [
            AudioFormat.speech, AudioFormat(sampleRate: 44_100, channels: 2), AudioFormat(sampleRate: 8_000, channels: 6),
        ] {
            var samples = AudioTestSignals.sine(frequency: 440, rate: format.sampleRate, count: 1_000 * format.channels)
            samples += [Int16.min, Int16.max, 0, -1] + [Int16](repeating: 7, count: format.channels * 4 - 4)
            let chunk = AudioChunk(format: format, samples: samples)
            let path = directory + "/round-\(format.sampleRate)-\(format.channels).wav"
            try WAVFile.write(chunk, to: path)
            let (read, encoding) = try WAVFile.readWithEncoding(path: path)
            XCTAssertEqual(read, chunk)
            XCTAssertEqual(encoding, WAVFile.Encoding(isFloat: false, bitsPerSample: 16))
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
            XCTAssertEqual(size, 44 + samples.count * 2)
        }
    }

    func testEncodedHeaderIsCanonical() throws {
        let data = try WAVFile.encode(AudioChunk(format: AudioFormat(sampleRate: 22_050, channels: 2), samples: [1, -2, 3, -4]))
        let bytes = [UInt8](data)
        XCTAssertEqual(String(decoding: bytes[0..<4], as: UTF8.self), "RIFF")
        XCTAssertEqual(Array(bytes[4..<8]), [44, 0, 0, 0])
        XCTAssertEqual(String(decoding: bytes[8..<16], as: UTF8.self), "WAVEfmt ")
        XCTAssertEqual(Array(bytes[24..<28]), [0x22, 0x56, 0, 0])  // 22050
        XCTAssertEqual(Array(bytes[28..<32]), [0x88, 0x58, 0x01, 0])  // 88200 bytes/s
        XCTAssertEqual(Array(bytes[32..<36]), [4, 0, 16, 0])
        XCTAssertEqual(Array(bytes[40..<44]), [8, 0, 0, 0])
        XCTAssertEqual(Array(bytes[44...]), [1, 0, 0xFE, 0xFF, 3, 0, 0xFC, 0xFF])
    }

    func testEightBitUnsigned() throws {
        let data = WAVBytes.file(tag: 1, channels: 1, rate: 8_000, bits: 8, data: [0, 128, 255, 64])
        let (chunk, encoding) = try WAVFile.decode(data)
        XCTAssertEqual(chunk.samples, [-32768, 0, 32512, -16384])
        XCTAssertEqual(chunk.format, AudioFormat(sampleRate: 8_000, channels: 1))
        XCTAssertEqual(encoding.bitsPerSample, 8)
    }

    func testTwentyFourBitKeepsTopSixteenBits() throws {
        // 0x123456, -1 (0xFFFFFF), 0x7FFFFF, 0x800000
        let data = WAVBytes.file(
            tag: 1, channels: 2, rate: 48_000, bits: 24,
            data: [0x56, 0x34, 0x12, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0x00, 0x00, 0x80])
        let chunk = try decode(data)
        XCTAssertEqual(chunk.samples, [0x1234, -1, 32767, -32768])
        XCTAssertEqual(chunk.format.channels, 2)
        XCTAssertEqual(chunk.frameCount, 2)
    }

    func testThirtyTwoBitInteger() throws {
        var bytes = WAVBytes()
        for value: Int32 in [0x1234_5678, -0x1234_5678, Int32.max, Int32.min] { bytes.u32(Int(value)) }
        let chunk = try decode(WAVBytes.file(tag: 1, channels: 1, rate: 16_000, bits: 32, data: bytes.bytes))
        XCTAssertEqual(chunk.samples, [0x1234, -0x1235, 32767, -32768])
    }

    func testFloat32AndFloat64ScaleAndClamp() throws {
        let values: [Float] = [0, 0.5, -0.5, 1.0, -1.0, 2.5, -3, .nan]
        let expected: [Int16] = [0, 16384, -16384, 32767, -32768, 32767, -32768, 0]
        var bytes32 = WAVBytes()
        for value in values { bytes32.u32(Int(value.bitPattern)) }
        XCTAssertEqual(
            try decode(WAVBytes.file(tag: 3, channels: 2, rate: 44_100, bits: 32, data: bytes32.bytes)).samples, expected)
        var bytes64 = WAVBytes()
        for value in values {
            let bits = Double(value).bitPattern
            bytes64.u32(Int(bits & 0xFFFF_FFFF))
            bytes64.u32(Int(bits >> 32))
        }
        let (chunk, encoding) = try WAVFile.decode(
            WAVBytes.file(tag: 3, channels: 1, rate: 44_100, bits: 64, data: bytes64.bytes))
        XCTAssertEqual(chunk.samples, expected)
        XCTAssertEqual(encoding, WAVFile.Encoding(isFloat: true, bitsPerSample: 64))
    }

    func testExtensibleFormatsUseTheSubformat() throws {
        let pcm = WAVBytes.file(
            tag: 1, channels: 1, rate: 16_000, bits: 16, data: [0x34, 0x12, 0xFF, 0xFF], extensibleSubformat: 1)
        XCTAssertEqual(try decode(pcm).samples, [0x1234, -1])
        var floats = WAVBytes()
        floats.u32(Int(Float(0.25).bitPattern))
        floats.u32(Int(Float(-0.25).bitPattern))
        let float = WAVBytes.file(tag: 3, channels: 2, rate: 48_000, bits: 32, data: floats.bytes, extensibleSubformat: 3)
        let chunk = try decode(float)
        XCTAssertEqual(chunk.samples, [8192, -8192])
        XCTAssertEqual(chunk.format, AudioFormat(sampleRate: 48_000, channels: 2))
        let adpcm = WAVBytes.file(tag: 1, channels: 1, rate: 16_000, bits: 16, data: [0, 0], extensibleSubformat: 0x11)
        assertAudioError(.unsupportedFormat) { _ = try decode(adpcm) }
    }

    func testUnknownChunksAndOddPaddingAreSkipped() throws {
        let data = WAVBytes.file(
            tag: 1, channels: 1, rate: 16_000, bits: 16, data: [1, 0, 2, 0],
            chunksBefore: [("LIST", Array("INFOISFT\u{5}\0\0\0Lavf\0".utf8)), ("odd ", [1, 2, 3]), ("fact", [4, 0, 0, 0])])
        XCTAssertEqual(try decode(data).samples, [1, 2])
    }

    func testChunksAfterDataAndTrailingPartialFrameAreIgnored() throws {
        var bytes = [UInt8](WAVBytes.file(tag: 1, channels: 2, rate: 16_000, bits: 16, data: [1, 0, 2, 0, 3, 0]))
        bytes += Array("LIST".utf8) + [200, 0, 0, 0] + [1, 2]  // a damaged trailing chunk
        let chunk = try decode(Data(bytes))
        XCTAssertEqual(chunk.samples, [1, 2])
    }

    func testStreamingPlaceholderSizeReadsToEndOfFile() throws {
        for placeholder in [0xFFFF_FFFF, 0x7FFF_F000, 0] {
            var bytes = [UInt8](
                WAVBytes.file(
                    tag: 1, channels: 1, rate: 16_000, bits: 16, data: [5, 0, 6, 0, 7, 0], dataSizeOverride: placeholder))
            bytes.replaceSubrange(4..<8, with: [0xFF, 0xFF, 0xFF, 0xFF])
            XCTAssertEqual(try decode(Data(bytes)).samples, [5, 6, 7], "placeholder \(placeholder)")
        }
        // With a real RIFF size, a zero data size means an empty recording.
        let empty = WAVBytes.file(tag: 1, channels: 1, rate: 16_000, bits: 16, data: [], chunksBefore: [])
        XCTAssertEqual(try decode(empty + Data("LIST\u{2}\0\0\0ab".utf8)).samples, [])
    }

    /// A file declaring 1 Hz used to be converted to 16 kHz by allocating 16000 times its
    /// size (6.4 GB for a 400 kB file) and aborting; now any rate outside 8-192 kHz is a clear
    /// error before anything is allocated for it.
    func testSampleRatesOutsideEightTo192KilohertzAreRefused() throws {
        let samples = [UInt8](repeating: 0, count: 400)
        for rate in [1, 100, 7_999, 192_001, 1_000_000, Int(UInt32.max)] {
            assertAudioError(.unsupportedFormat) {
                _ = try decode(WAVBytes.file(tag: 1, channels: 1, rate: rate, bits: 16, data: samples))
            }
        }
        for rate in [8_000, 11_025, 44_100, 96_000, 192_000] {
            let chunk = try decode(WAVBytes.file(tag: 1, channels: 1, rate: rate, bits: 16, data: samples))
            XCTAssertEqual(chunk.format.sampleRate, rate)
            XCTAssertEqual(chunk.samples.count, 200)
        }
    }

    func testMalformedFilesGiveTypedErrors() {
        assertAudioError(.notWAV) { _ = try decode(Data()) }
        assertAudioError(.notWAV) { _ = try decode(Data("hello, this is not audio at all".utf8)) }
        assertAudioError(.notWAV) { _ = try decode(Data("RIFF\u{4}\0\0\0AVI ".utf8)) }
        assertAudioError(.notWAV) { _ = try decode(Data("RIFF\u{4}\0\0\0WAVE".utf8)) }
        var noData = WAVBytes()
        noData.text("RIFF")
        noData.u32(28)
        noData.text("WAVEfmt ")
        noData.u32(16)
        noData.u16(1)
        noData.u16(1)
        noData.u32(16_000)
        noData.u32(32_000)
        noData.u16(2)
        noData.u16(16)
        assertAudioError(.notWAV) { _ = try decode(Data(noData.bytes)) }
        var dataFirst = WAVBytes()
        dataFirst.text("RIFF")
        dataFirst.u32(14)
        dataFirst.text("WAVEdata")
        dataFirst.u32(2)
        dataFirst.u16(1)
        assertAudioError(.notWAV) { _ = try decode(Data(dataFirst.bytes)) }
        assertAudioError(.notWAV) { _ = try decode(WAVBytes.file(tag: 1, channels: 0, rate: 16_000, bits: 16, data: [])) }
        assertAudioError(.notWAV) { _ = try decode(WAVBytes.file(tag: 1, channels: 1, rate: 0, bits: 16, data: [])) }
        assertAudioError(.unsupportedFormat) {
            _ = try decode(WAVBytes.file(tag: 0x11, channels: 1, rate: 8_000, bits: 4, data: [0]))
        }
        assertAudioError(.unsupportedFormat) {
            _ = try decode(WAVBytes.file(tag: 1, channels: 1, rate: 8_000, bits: 12, data: [0, 0]))
        }
        assertAudioError(.unsupportedFormat) {
            _ = try decode(WAVBytes.file(tag: 3, channels: 1, rate: 8_000, bits: 16, data: [0, 0]))
        }
        assertAudioError(.truncated) {
            _ = try decode(WAVBytes.file(tag: 1, channels: 1, rate: 16_000, bits: 16, data: [1, 0], dataSizeOverride: 1_000))
        }
        var mismatchedAlign = [UInt8](WAVBytes.file(tag: 1, channels: 2, rate: 16_000, bits: 16, data: [0, 0, 0, 0]))
        mismatchedAlign[32] = 3
        assertAudioError(.notWAV) { _ = try decode(Data(mismatchedAlign)) }
    }

    func testEveryTruncationOfAValidFileFailsCleanly() throws {
        let full = try WAVFile.encode(
            AudioChunk(format: .speech, samples: AudioTestSignals.sine(frequency: 300, rate: 16_000, count: 64)))
        for length in 0..<full.count {
            do {
                let chunk = try decode(full.prefix(length))
                XCTFail("truncated to \(length) bytes decoded \(chunk.samples.count) samples")
            } catch let error as AudioError {
                XCTAssertTrue([.notWAV, .truncated].contains(error.kind), "\(length): \(error.code)")
            }
        }
    }

    func testRandomCorruptionNeverTraps() throws {
        let valid = [UInt8](
            try WAVFile.encode(
                AudioChunk(format: AudioFormat(sampleRate: 8_000, channels: 2), samples: [Int16](repeating: 100, count: 200))))
        var generator = SystemRandomNumberGenerator()
        var decoded = 0
        var failed = 0
        for round in 0..<3_000 {
            var bytes = valid
            if round % 3 == 0 {
                bytes = (0..<Int.random(in: 0...120, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                if round % 2 == 0, bytes.count >= 12 { bytes.replaceSubrange(0..<12, with: Array("RIFF\0\0\0\0WAVE".utf8)) }
            } else {
                for _ in 0..<Int.random(in: 1...6, using: &generator) {
                    bytes[Int.random(in: 0..<48, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
            }
            do {
                let chunk = try decode(Data(bytes))
                XCTAssertEqual(chunk.samples.count % chunk.format.channels, 0)
                decoded += 1
            } catch is AudioError {
                failed += 1
            }
        }
        XCTAssertEqual(decoded + failed, 3_000)
        XCTAssertGreaterThan(failed, 0)
    }

    func testFileErrors() throws {
        let directory = try AudioTestSignals.temporaryDirectory(for: self)
        assertAudioError(.unreadable) { _ = try WAVFile.read(path: directory + "/missing.wav") }
        assertAudioError(.unreadable) { _ = try WAVFile.read(path: directory) }
        let text = directory + "/notes.wav"
        try Data("just text".utf8).write(to: URL(fileURLWithPath: text))
        assertAudioError(.notWAV) { _ = try WAVFile.read(path: text) }
        let chunk = AudioChunk(format: .speech, samples: [1, 2, 3])
        assertAudioError(.unwritable) { try WAVFile.write(chunk, to: directory + "/no/such/dir/out.wav") }
        assertAudioError(.invalidFormat) {
            try WAVFile.write(
                AudioChunk(format: AudioFormat(sampleRate: 16_000, channels: 2), samples: [1, 2, 3]), to: directory + "/odd.wav")
        }
        assertAudioError(.invalidFormat) {
            _ = try WAVFile.encode(AudioChunk(format: AudioFormat(sampleRate: 0, channels: 1), samples: []))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/odd.wav"))
    }
}
