import SusiCore
import XCTest

/// SusiCore's converter on its own: channel changes need no resampler, rate changes do.
final class AudioConverterChannelTests: XCTestCase {
    func testChannelsChangeWithoutAResampler() throws {
        let stereo = AudioChunk(format: AudioFormat(sampleRate: 16_000, channels: 2), samples: [100, 300, -50, -150])
        XCTAssertEqual(try AudioConverter.convert(stereo, to: .speech).samples, [200, -100])
        let mono = AudioChunk(format: .speech, samples: [7, -7])
        let doubled = try AudioConverter.convert(mono, to: AudioFormat(sampleRate: 16_000, channels: 2))
        XCTAssertEqual(doubled.samples, [7, 7, -7, -7])
    }

    func testARateChangeWithoutAResamplerIsRefused() {
        XCTAssertThrowsError(try AudioConverter(from: AudioFormat(sampleRate: 48_000, channels: 1))) { error in
            XCTAssertEqual((error as? AudioError)?.code, "audio-invalid-format")
        }
    }

    func testTheResamplerGivenIsUsedPerChannel() throws {
        final class Halver: SampleRateConverter {
            func process(_ input: [Float]) -> [Float] { stride(from: 0, to: input.count, by: 2).map { input[$0] } }
            func flush() -> [Float] { [] }
        }
        var made = 0
        let maker: SampleRateConverterMaker = { _, _ in
            made += 1
            return Halver()
        }
        let stereo = AudioChunk(format: AudioFormat(sampleRate: 32_000, channels: 2), samples: [1, 2, 3, 4, 5, 6, 7, 8])
        let output = try AudioConverter.convert(stereo, to: AudioFormat(sampleRate: 16_000, channels: 2), resampler: maker)
        XCTAssertEqual(output.samples, [1, 2, 5, 6])
        XCTAssertEqual(made, 2)
    }
}
