import Foundation
import SusiCore
import XCTest

final class WAVWriterTests: XCTestCase {
    func testAppendedChunksReadBackWholeAndNoTemporaryFileRemains() throws {
        let directory = try AudioTestSignals.temporaryDirectory(for: self)
        let path = directory + "/stream.wav"
        let format = AudioFormat(sampleRate: 22_050, channels: 2)
        let samples = AudioTestSignals.sine(frequency: 500, rate: 22_050, count: 9_000)
        let writer = try WAVWriter(path: path, format: format)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "nothing appears before close")
        var offset = 0
        for size in [0, 2, 1_000, 3_998, 4_000] {
            try writer.append(AudioChunk(format: format, samples: Array(samples[offset..<(offset + size)])))
            offset += size
        }
        XCTAssertEqual(writer.framesWritten, 4_500)
        try writer.close()
        try writer.close()
        XCTAssertEqual(try WAVFile.read(path: path), AudioChunk(format: format, samples: samples))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), ["stream.wav"])
        XCTAssertEqual(
            try WAVFile.encode(AudioChunk(format: format, samples: samples)), try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func testCloseReplacesAnExistingFile() throws {
        let directory = try AudioTestSignals.temporaryDirectory(for: self)
        let path = directory + "/out.wav"
        try WAVFile.write(AudioChunk(format: .speech, samples: [9, 9, 9, 9]), to: path)
        let writer = try WAVWriter(path: path, format: .speech)
        try writer.append(AudioChunk(format: .speech, samples: [1]))
        XCTAssertEqual(try WAVFile.read(path: path).samples, [9, 9, 9, 9], "old file intact while writing")
        try writer.close()
        XCTAssertEqual(try WAVFile.read(path: path).samples, [1])
    }

    func testCancelAndDeinitLeaveNothingBehind() throws {
        let directory = try AudioTestSignals.temporaryDirectory(for: self)
        let cancelled = try WAVWriter(path: directory + "/a.wav", format: .speech)
        try cancelled.append(AudioChunk(format: .speech, samples: [1, 2]))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory).count, 1, "temporary file exists")
        cancelled.cancel()
        do {
            var dropped: WAVWriter? = try WAVWriter(path: directory + "/b.wav", format: .speech)
            try dropped?.append(AudioChunk(format: .speech, samples: [3]))
            dropped = nil
            XCTAssertNil(dropped)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), [])
        XCTAssertThrowsError(try cancelled.append(AudioChunk(format: .speech, samples: [1]))) { error in
            XCTAssertEqual((error as? AudioError)?.kind, .unwritable)
        }
    }

    func testErrors() throws {
        let directory = try AudioTestSignals.temporaryDirectory(for: self)
        XCTAssertThrowsError(try WAVWriter(path: directory + "/missing/x.wav", format: .speech)) { error in
            XCTAssertEqual((error as? AudioError)?.code, "audio-unwritable")
        }
        XCTAssertThrowsError(try WAVWriter(path: directory + "/x.wav", format: AudioFormat(sampleRate: 16_000, channels: 0))) {
            error in
            XCTAssertEqual((error as? AudioError)?.code, "audio-invalid-format")
        }
        let writer = try WAVWriter(path: directory + "/y.wav", format: .speech)
        XCTAssertThrowsError(try writer.append(AudioChunk(format: AudioFormat(sampleRate: 8_000, channels: 1), samples: [1]))) {
            error in
            XCTAssertEqual((error as? AudioError)?.code, "audio-format-mismatch")
        }
        try writer.close()
        XCTAssertEqual(try WAVFile.read(path: directory + "/y.wav").samples, [])
    }
}
