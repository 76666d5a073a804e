import Foundation
import SusiCore
import XCTest

@testable import SusiAudio

final class WAVFilePipelineIOTests: XCTestCase {
    private let directory = NSTemporaryDirectory() + "susi-io-\(UUID().uuidString)"

    override func setUpWithError() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    func testSourceConvertsAnyFormatTo16kMonoChunks() throws {
        let path = directory + "/in.wav"
        let stereo = AudioFormat(sampleRate: 44_100, channels: 2)
        let frames = 44_100 / 2
        let samples = (0..<frames).flatMap { index -> [Int16] in
            let value = Int16(sin(Double(index) * 2 * .pi * 440 / 44_100) * 10_000)
            return [value, value]
        }
        try WAVFile.write(AudioChunk(format: stereo, samples: samples), to: path)
        let source = try WAVFileSource(path: path)
        XCTAssertNil(try source.readAvailable(), "a file read at full speed waits while the speaker talks")
        var total = 0
        var loudest: Int16 = 0
        while let chunk = try source.read(milliseconds: 80) {
            XCTAssertEqual(chunk.format, .speech)
            XCTAssertTrue(chunk.samples.count == 1280 || total + chunk.samples.count == 8000, "\(chunk.samples.count)")
            total += chunk.samples.count
            loudest = max(loudest, chunk.samples.max() ?? 0)
        }
        XCTAssertEqual(Double(total), 8000, accuracy: 2)
        XCTAssertGreaterThan(loudest, 9000)
    }

    func testMissingAndNonWAVInputsAreTypedErrors() throws {
        XCTAssertThrowsError(try WAVFileSource(path: directory + "/none.wav")) { error in
            XCTAssertEqual((error as? AudioError)?.stage, .audio)
        }
        let text = directory + "/text.wav"
        try Data("hello, not audio".utf8).write(to: URL(fileURLWithPath: text))
        XCTAssertThrowsError(try WAVFileSource(path: text)) { error in
            XCTAssertEqual((error as? AudioError)?.code, "audio-not-wav")
        }
    }

    func testRealtimeSourceReleasesAudioAsTimePasses() throws {
        let path = directory + "/rt.wav"
        try WAVFile.write(AudioChunk(format: .speech, samples: [Int16](repeating: 100, count: 16_000)), to: path)
        let source = try WAVFileSource(path: path, realtime: true)
        // A read waits until all it asks for would have arrived: here 120 ms from the start.
        let started = ContinuousClock.now
        XCTAssertEqual(try source.read(milliseconds: 20)?.samples.count, 320)
        XCTAssertEqual(try source.read(milliseconds: 100)?.samples.count, 1600)
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - started, .milliseconds(120))
        Thread.sleep(forTimeInterval: 0.2)
        var arrived = 0
        while let chunk = try source.readAvailable() { arrived += chunk.samples.count }
        // About 200 ms arrived (a busy machine may give more, never the whole second).
        XCTAssertGreaterThanOrEqual(arrived, 2400)
        XCTAssertLessThan(arrived, 16_000 - 320)
    }

    func testSinkConvertsAndAppearsOnlyOnClose() throws {
        let path = directory + "/out.wav"
        let sink = try WAVFileSink(path: path)
        try sink.play(AudioChunk(format: .speech, samples: [Int16](repeating: 500, count: 16_000)))
        try sink.play(AudioChunk(format: WAVFileSink.format, samples: [Int16](repeating: 500, count: 22_050)))
        try sink.drain()
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        try sink.close()
        let written = try WAVFile.read(path: path)
        XCTAssertEqual(written.format, WAVFileSink.format)
        XCTAssertEqual(Double(written.frameCount), 44_100, accuracy: 30)
    }

    func testSinkToAMissingDirectoryFails() {
        XCTAssertThrowsError(try WAVFileSink(path: directory + "/no/such/dir/out.wav")) { error in
            XCTAssertEqual((error as? AudioError)?.code, "audio-unwritable")
        }
    }
}
