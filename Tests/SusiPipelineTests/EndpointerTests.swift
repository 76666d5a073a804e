import Foundation
import XCTest

@testable import SusiPipeline

final class EndpointerTests: XCTestCase {
    /// Deterministic pseudo-random noise so runs are repeatable.
    private struct Noise {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        mutating func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(Int64(bitPattern: state >> 11) % 2000) / 1000 - 1
        }
    }

    private var noise = Noise()

    /// `ms` of background noise at `amplitude` (fraction of full scale).
    private func background(_ ms: Int, amplitude: Double = 0.003) -> [Int16] {
        (0..<(ms * 16)).map { _ in Int16(noise.next() * amplitude * 32767) }
    }

    /// `ms` of a voiced-like signal at an RMS level of `amplitude / 2` (fraction of full
    /// scale) plus the background: harmonics of 150 Hz, strongest around 450-600 Hz (where a
    /// vowel's first formant puts most of its energy).
    private func voice(_ ms: Int, amplitude: Double = 0.3) -> [Int16] {
        let harmonics: [(hz: Double, weight: Double)] = [(150, 0.4), (300, 0.7), (450, 1), (600, 1), (750, 0.5), (900, 0.3)]
        let rms = (harmonics.reduce(0) { $0 + $1.weight * $1.weight } / 2).squareRoot()
        return (0..<(ms * 16)).map { index in
            let t = Double(index) / 16000
            let tone = harmonics.reduce(0) { $0 + $1.weight * sin(2 * .pi * $1.hz * t) }
            return Int16(max(-32767, min(32767, (tone / rms * amplitude / 2 + noise.next() * 0.003) * 32767)))
        }
    }

    private func run(_ audio: [Int16], settings: EndpointerSettings, ending: CommandEnding = .unfinished, chunk: Int = 333)
        -> (Endpointer, endedAtMs: Int?)
    {
        var endpointer = Endpointer(settings: settings)
        var index = 0
        while index < audio.count {
            let slice = audio[index..<min(index + chunk, audio.count)]
            if case .ended = endpointer.process(slice, ending: ending) { return (endpointer, endpointer.elapsedMs) }
            index += chunk
        }
        return (endpointer, nil)
    }

    func testTrailingSilenceEndsCommand() {
        let settings = EndpointerSettings(endSilenceMs: 600, noSpeechTimeoutMs: 5000, maxUtteranceMs: 10000)
        let audio = background(400) + voice(800) + background(200) + voice(500) + background(1500)
        let (endpointer, endedAt) = run(audio, settings: settings)
        XCTAssertEqual(endpointer.state, .ended(.silence))
        // Speech ends at 1900 ms; the pause of 200 ms in the middle must not end it.
        XCTAssertEqual(endedAt ?? 0, 2500, accuracy: 40)
        XCTAssertEqual(endpointer.speechStartMs ?? 0, 400, accuracy: 40)
        XCTAssertEqual(endpointer.lastVoiceMs ?? 0, 1900, accuracy: 40)
    }

    func testSoftSoundsInsideACommandInNoiseAreNotSilence() {
        // Loud noise (about -35 dBFS); a command whose middle is only ~8 dB above it, as the
        // soft sounds of a command are at 10 dB SNR. Even a complete-sounding command must
        // not end there.
        func noisy(_ signal: [Int16]) -> [Int16] {
            signal.map { Int16(max(-32767, min(32767, Double($0) + noise.next() * 0.03 * 32767))) }
        }
        let settings = EndpointerSettings(endSilenceMs: 600, shortSilenceMs: 200)
        let audio =
            noisy(background(1000, amplitude: 0)) + noisy(voice(500)) + noisy(voice(400, amplitude: 0.09))
            + noisy(voice(400)) + noisy(background(1500, amplitude: 0))
        let (endpointer, endedAt) = run(audio, settings: settings, ending: .complete)
        XCTAssertEqual(endpointer.state, .ended(.completeCommand))
        // Speech ends at 2300 ms.
        XCTAssertGreaterThanOrEqual(endedAt ?? 0, 2300 + 150)
        XCTAssertEqual(endpointer.lastVoiceMs ?? 0, 2300, accuracy: 60)
    }

    func testLowRumbleAfterACommandIsSilence() {
        // Brown noise (a fan, traffic, a fridge: most of its energy in the lowest notes) about
        // 15 dB under the voice. Its slow swells are louder than its average for tens of ms at
        // a time; judged on all frequencies, they passed for voice and held the command open
        // long after the person stopped.
        var level = 0.0
        func rumbling(_ signal: [Int16]) -> [Int16] {
            signal.map { sample in
                level = level * 0.998 + noise.next() * 0.004
                return Int16(max(-32767, min(32767, Double(sample) + level * 32767)))
            }
        }
        let settings = EndpointerSettings(endSilenceMs: 600)
        let audio = rumbling(background(1500, amplitude: 0)) + rumbling(voice(800)) + rumbling(background(3000, amplitude: 0))
        let (endpointer, endedAt) = run(audio, settings: settings)
        XCTAssertEqual(endpointer.state, .ended(.silence))
        // Speech ends at 2300 ms.
        XCTAssertEqual(endpointer.lastVoiceMs ?? 0, 2300, accuracy: 40)
        XCTAssertEqual(endedAt ?? 0, 2300 + 600, accuracy: 40)
    }

    func testCompleteCommandEndsAfterShortSilence() {
        let settings = EndpointerSettings(endSilenceMs: 700, shortSilenceMs: 200)
        let audio = background(300) + voice(600) + background(1500)
        let (endpointer, endedAt) = run(audio, settings: settings, ending: .complete)
        XCTAssertEqual(endpointer.state, .ended(.completeCommand))
        XCTAssertEqual(endedAt ?? 0, 1100, accuracy: 40)
        let (undecided, undecidedAt) = run(audio, settings: settings, ending: .undecided)
        XCTAssertEqual(undecided.state, .ended(.completeCommand))
        XCTAssertEqual(undecidedAt ?? 0, 900 + 450, accuracy: 40, "halfway between 200 and 700 ms")
        let (disputed, disputedAt) = run(audio, settings: settings, ending: .disputed)
        XCTAssertEqual(disputed.state, .ended(.completeCommand))
        XCTAssertEqual(disputedAt ?? 0, 900 + 325, accuracy: 40, "a quarter of the way from 200 to 700 ms")
    }

    func testHowFinishedWordsSound() {
        XCTAssertEqual(CommandEnding.of("what time is it", matchesSkill: true), .complete)
        XCTAssertEqual(
            CommandEnding.of("what is the", matchesSkill: true), .unfinished,
            "a skill's wildcard may match, the words are not over")
        XCTAssertEqual(CommandEnding.of("play songs by", matchesSkill: false), .unfinished)
        XCTAssertEqual(CommandEnding.of("", matchesSkill: false), .unfinished)
        XCTAssertEqual(CommandEnding.of("how tall is mount everest", matchesSkill: false), .undecided)
        for command in ["what room are you in", "carry on", "volume up please"] {
            XCTAssertEqual(CommandEnding.of(command, matchesSkill: true), .complete, command)
        }
    }

    func testNoSpeechTimesOut() {
        let settings = EndpointerSettings(noSpeechTimeoutMs: 1500)
        let (endpointer, endedAt) = run(background(3000), settings: settings)
        XCTAssertEqual(endpointer.state, .ended(.noSpeech))
        XCTAssertEqual(endedAt, 1500)
        XCTAssertNil(endpointer.speechStartMs)
    }

    func testDigitalSilenceIsNotSpeech() {
        let (endpointer, _) = run([Int16](repeating: 0, count: 16000 * 2), settings: EndpointerSettings(noSpeechTimeoutMs: 1000))
        XCTAssertEqual(endpointer.state, .ended(.noSpeech))
    }

    func testMaximumLength() {
        let settings = EndpointerSettings(maxUtteranceMs: 2000)
        let (endpointer, endedAt) = run(background(200) + voice(5000), settings: settings)
        XCTAssertEqual(endpointer.state, .ended(.maxLength))
        XCTAssertEqual(endedAt ?? 0, 2200, accuracy: 40)
    }

    func testLoudBackgroundNoiseAloneDoesNotCountAsSpeech() {
        let (endpointer, _) = run(background(3000, amplitude: 0.05), settings: EndpointerSettings(noSpeechTimeoutMs: 2500))
        XCTAssertEqual(endpointer.state, .ended(.noSpeech))
    }

    func testSeededFloorHearsSpeechAlreadyUnderWay() {
        var idle = Endpointer(settings: EndpointerSettings())
        idle.process(background(500))
        var endpointer = Endpointer(settings: EndpointerSettings(endSilenceMs: 500), noiseFloorDB: idle.noiseFloorDB)
        endpointer.process(voice(700) + background(800))
        XCTAssertEqual(endpointer.state, .ended(.silence))
        XCTAssertEqual(endpointer.speechStartMs ?? -1, 0, accuracy: 40)
    }

    func testChunkSizeDoesNotMatter() {
        let audio = background(300) + voice(600) + background(1000)
        let settings = EndpointerSettings(endSilenceMs: 500)
        XCTAssertEqual(run(audio, settings: settings, chunk: 1).endedAtMs, run(audio, settings: settings, chunk: 4096).endedAtMs)
    }
}
