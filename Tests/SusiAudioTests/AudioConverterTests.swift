import Foundation
import SusiAudio
import SusiCore
import XCTest

final class AudioConverterTests: XCTestCase {
    /// Resamples a sine and compares every output sample with the ideal sine at the output
    /// rate: this checks frequency, amplitude and timing (no delay) at once.
    private func assertSineSurvives(from inputRate: Int, frequency: Double, file: StaticString = #filePath, line: UInt = #line)
        throws
    {
        let amplitude = 12_000.0
        let input = AudioTestSignals.sine(frequency: frequency, rate: inputRate, count: inputRate / 2, amplitude: amplitude)
        let output = try AudioConverter.convert(
            AudioChunk(format: AudioFormat(sampleRate: inputRate, channels: 1), samples: input))
        XCTAssertEqual(output.format, .speech, file: file, line: line)
        XCTAssertEqual(output.samples.count, 8_000, file: file, line: line)
        let expected = AudioTestSignals.sine(frequency: frequency, rate: 16_000, count: 8_000, amplitude: amplitude)
        // Skip the filter's ramp-in and ramp-out at the ends, where the input is cut off.
        let middle = 200..<7_800
        let worst = middle.map { abs(Int(output.samples[$0]) - Int(expected[$0])) }.max() ?? .max
        XCTAssertLessThan(Double(worst), amplitude * 0.01, "\(inputRate) Hz, \(frequency) Hz tone", file: file, line: line)
        let measured = AudioTestSignals.goertzelAmplitude(output.samples[middle], frequency: frequency, rate: 16_000)
        XCTAssertEqual(measured, amplitude, accuracy: amplitude * 0.01, file: file, line: line)
        // 7,900 samples at 16 kHz hold frequency * 7900 / 16000 periods, one rising crossing each.
        let crossings = AudioTestSignals.risingZeroCrossings(output.samples[100...])
        XCTAssertEqual(Double(crossings), frequency * 7_900 / 16_000, accuracy: 1.5, file: file, line: line)
    }

    func testSpeechBandSinesKeepFrequencyAmplitudeAndTiming() throws {
        for rate in [22_050, 44_100, 48_000, 8_000, 32_000, 11_025, 96_000] {
            // Below 16 kHz the input's own Nyquist limit is the band edge: keep the tone clear of
            // the filter's transition band there.
            for frequency in [440.0, 1_000, rate < 16_000 ? 2_500 : 6_000] {
                try assertSineSurvives(from: rate, frequency: frequency)
            }
        }
    }

    func testContentAboveTheNewNyquistIsRemovedNotAliased() throws {
        for (rate, frequency) in [(48_000, 10_000.0), (44_100, 12_000), (22_050, 9_000), (48_000, 20_000)] {
            let input = AudioTestSignals.sine(frequency: frequency, rate: rate, count: rate, amplitude: 16_000)
            let output = try AudioConverter.convert(
                AudioChunk(format: AudioFormat(sampleRate: rate, channels: 1), samples: input))
            let alias = 16_000 - frequency.truncatingRemainder(dividingBy: 16_000)
            let middle = output.samples[1_000..<15_000]
            let aliasAmplitude = AudioTestSignals.goertzelAmplitude(middle, frequency: alias, rate: 16_000)
            XCTAssertLessThan(aliasAmplitude, 16, "\(frequency) Hz at \(rate) Hz aliased to \(alias) Hz")
            XCTAssertLessThan(AudioTestSignals.rms(middle), 16)
        }
    }

    func testStreamingEqualsOneShotForAnyChunking() throws {
        for (rate, channels) in [(22_050, 1), (44_100, 2), (48_000, 1), (8_000, 1), (16_000, 2)] {
            let format = AudioFormat(sampleRate: rate, channels: channels)
            let samples = AudioTestSignals.sine(frequency: 700, rate: rate, count: rate / 3 * channels)
                .enumerated().map { $0.offset % 7 == 0 ? $0.element / 3 : $0.element }
            let oneShot = try AudioConverter.convert(AudioChunk(format: format, samples: samples))
            var converter = try AudioConverter(from: format, to: .speech)
            var streamed: [Int16] = []
            var offset = 0
            var generator = SystemRandomNumberGenerator()
            while offset < samples.count / channels {
                let frames = min(
                    [0, 1, 2, 17, 160, 441, 1_024].randomElement(using: &generator) ?? 1, samples.count / channels - offset)
                let chunk = AudioChunk(
                    format: format, samples: Array(samples[(offset * channels)..<((offset + frames) * channels)]))
                streamed += try converter.convert(chunk).samples
                offset += frames
            }
            streamed += converter.flush().samples
            XCTAssertEqual(streamed, oneShot.samples, "\(format)")
            XCTAssertEqual(streamed.count, Int((Double(samples.count / channels) * 16_000 / Double(rate)).rounded(.up)))
        }
    }

    func testFlushStartsAFreshStream() throws {
        let format = AudioFormat(sampleRate: 44_100, channels: 1)
        let chunk = AudioChunk(format: format, samples: AudioTestSignals.sine(frequency: 300, rate: 44_100, count: 4_410))
        var converter = try AudioConverter(from: format)
        let first = try converter.convert(chunk).samples + converter.flush().samples
        let second = try converter.convert(chunk).samples + converter.flush().samples
        XCTAssertEqual(first, second)
        XCTAssertEqual(first.count, 1_600)
    }

    func testDownmixAveragesChannels() throws {
        let left = AudioTestSignals.sine(frequency: 1_000, rate: 16_000, count: 1_600)
        let opposite = zip(left, left.map { $0 == .min ? .max : -$0 }).flatMap { [$0.0, $0.1] }
        let cancelled = try AudioConverter.convert(
            AudioChunk(format: AudioFormat(sampleRate: 16_000, channels: 2), samples: opposite))
        XCTAssertEqual(cancelled.samples.count, 1_600)
        XCTAssertLessThanOrEqual(cancelled.samples.map { abs(Int($0)) }.max() ?? 99, 1)
        let withSilence = zip(left, [Int16](repeating: 0, count: left.count)).flatMap { [$0.0, $0.1] }
        let halved = try AudioConverter.convert(
            AudioChunk(format: AudioFormat(sampleRate: 16_000, channels: 2), samples: withSilence))
        for (out, original) in zip(halved.samples, left) {
            XCTAssertEqual(Double(out), Double(original) / 2, accuracy: 1)
        }
    }

    func testStereoResampledToStereoKeepsChannelsApart() throws {
        let format = AudioFormat(sampleRate: 48_000, channels: 2)
        let left = AudioTestSignals.sine(frequency: 500, rate: 48_000, count: 4_800)
        let right = AudioTestSignals.sine(frequency: 2_000, rate: 48_000, count: 4_800)
        let interleaved = zip(left, right).flatMap { [$0.0, $0.1] }
        let output = try AudioConverter.convert(
            AudioChunk(format: format, samples: interleaved), to: AudioFormat(sampleRate: 16_000, channels: 2))
        let outLeft = stride(from: 0, to: output.samples.count, by: 2).map { output.samples[$0] }
        let outRight = stride(from: 1, to: output.samples.count, by: 2).map { output.samples[$0] }
        XCTAssertEqual(outLeft.count, 1_600)
        XCTAssertEqual(
            AudioTestSignals.goertzelAmplitude(outLeft[100..<1_500], frequency: 500, rate: 16_000), 10_000, accuracy: 100)
        XCTAssertLessThan(AudioTestSignals.goertzelAmplitude(outLeft[100..<1_500], frequency: 2_000, rate: 16_000), 50)
        XCTAssertEqual(
            AudioTestSignals.goertzelAmplitude(outRight[100..<1_500], frequency: 2_000, rate: 16_000), 10_000, accuracy: 100)
    }

    func testMonoIsCopiedToEveryTargetChannelAndUpsamplingWorks() throws {
        let mono = AudioTestSignals.sine(frequency: 440, rate: 22_050, count: 2_205)
        let output = try AudioConverter.convert(
            AudioChunk(format: AudioFormat(sampleRate: 22_050, channels: 1), samples: mono),
            to: AudioFormat(sampleRate: 48_000, channels: 2))
        XCTAssertEqual(output.frameCount, 4_800)
        for frame in 0..<output.frameCount {
            XCTAssertEqual(output.samples[2 * frame], output.samples[2 * frame + 1])
        }
        let left = stride(from: 0, to: output.samples.count, by: 2).map { output.samples[$0] }
        XCTAssertEqual(AudioTestSignals.goertzelAmplitude(left[200..<4_600], frequency: 440, rate: 48_000), 10_000, accuracy: 100)
    }

    func testIdenticalFormatsPassThroughUnchanged() throws {
        let samples: [Int16] = [1, -1, .max, .min, 0, 12_345]
        let chunk = AudioChunk(format: .speech, samples: samples)
        XCTAssertEqual(try AudioConverter.convert(chunk), chunk)
        let resampler = try SpeexResampler(inputRate: 8_000, outputRate: 8_000)
        XCTAssertTrue(resampler.isIdentity)
        XCTAssertEqual(resampler.process([1, 2, 3]), [1, 2, 3])
        XCTAssertEqual(resampler.flush(), [])
    }

    func testFullScaleSquareWaveClampsInsteadOfWrapping() throws {
        let square = (0..<4_410).map { ($0 / 50) % 2 == 0 ? Int16.max : Int16.min }
        let output = try AudioConverter.convert(AudioChunk(format: AudioFormat(sampleRate: 44_100, channels: 1), samples: square))
        // Gibbs overshoot would wrap around if not clamped, turning peaks into their opposite.
        for index in 100..<1_500
        where (Int(Double(index) * 44_100 / 16_000) / 50) % 2 == 0 && (Int(Double(index) * 44_100 / 16_000) % 50) > 10
            && (Int(Double(index) * 44_100 / 16_000) % 50) < 40
        {
            XCTAssertGreaterThan(output.samples[index], 20_000, "sample \(index)")
        }
    }

    func testErrors() throws {
        XCTAssertThrowsError(try AudioConverter(from: AudioFormat(sampleRate: 0, channels: 1))) { error in
            XCTAssertEqual((error as? AudioError)?.code, "audio-invalid-format")
        }
        XCTAssertThrowsError(try SpeexResampler(inputRate: 16_000, outputRate: -1)) { error in
            XCTAssertEqual((error as? AudioError)?.code, "audio-invalid-format")
        }
        var converter = try AudioConverter(from: AudioFormat(sampleRate: 44_100, channels: 2))
        XCTAssertThrowsError(try converter.convert(AudioChunk(format: .speech, samples: [1]))) { error in
            XCTAssertEqual((error as? AudioError)?.code, "audio-format-mismatch")
        }
        XCTAssertThrowsError(
            try converter.convert(AudioChunk(format: AudioFormat(sampleRate: 44_100, channels: 2), samples: [1, 2, 3]))
        ) { error in
            XCTAssertEqual((error as? AudioError)?.code, "audio-invalid-format")
        }
    }
}
