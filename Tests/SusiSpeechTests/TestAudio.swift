import Foundation
import SusiAudio
import SusiCore
import SusiModel
import XCTest

@testable import SusiSpeech

/// Audio for the tests: PocketSphinx's recorded test data, and eSpeak NG speech made to look
/// like a microphone's.
enum TestAudio {
    static let dataDirectory = "/usr/share/pocketsphinx/test/data"

    /// The repository's `models` directory.
    static let modelsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("models").path

    /// A new temporary directory (named after `prefix`) with a `skills` folder holding a copy
    /// of the bundled time, media and volume skills; the caller removes it.
    static func directoryWithSomeSkills(_ prefix: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory + "/skills", withIntermediateDirectories: true)
        for name in ["time.txt", "media.txt", "volume.txt"] {
            try FileManager.default.copyItem(atPath: modelsDirectory + "/skills/" + name, toPath: directory + "/skills/" + name)
        }
        return directory
    }

    /// The hotword dictionaries of `models/hotword`.
    static func hotwordDictionaries() throws -> [PronunciationDictionary] {
        try PronunciationDictionary.hotwordDictionaries(modelsDirectory: modelsDirectory)
            .map { path throws(SpeechError) in try PronunciationDictionary(contentsOf: path) }
    }

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

    /// Milliseconds of padding put before and after synthesized speech.
    static let padding = 500

    /// `text` spoken by eSpeak NG, converted to 16 kHz mono with `padding` ms of quiet on
    /// both sides and a faint noise floor everywhere, as a microphone in a quiet room gives
    /// (with `noiseFloor` off, exact digital silence, as a device that gates its input gives).
    ///
    /// Each sentence comes from a fresh `espeak-ng` process: the library's output depends
    /// slightly on what it synthesized before in the same process (its pitch flutter carries
    /// over), which made tests pass or fail with the order they ran in.
    static func spoken(_ text: String, voice: VoiceSettings = VoiceSettings(), noiseFloor: Bool = true) throws -> [Int16] {
        let path = NSTemporaryDirectory() + "susi-spoken-\(UUID().uuidString).wav"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/espeak-ng")
        process.arguments = [
            "-v", try ESpeakEngine.shared().espeakVoiceName(for: voice), "-s", "\(voice.rate)", "-p", "\(voice.pitch)",
            "-a", "\(voice.volume)", "-z", "-w", path, text,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw SynthesisError(.synthesisFailed, "espeak-ng could not say \"\(text)\" with \(voice.name)")
        }
        return microphone(try AudioConverter.convert(try WAVFile.read(path: path), to: .speech).samples, noiseFloor: noiseFloor)
    }

    /// `samples` (16 kHz) padded and, with `noiseFloor`, with noise of about ±8 added;
    /// deterministic.
    static func microphone(_ samples: [Int16], noiseFloor: Bool = true) -> [Int16] {
        let pad = [Int16](repeating: 0, count: AudioFormat.speech.frames(milliseconds: padding))
        guard noiseFloor else { return pad + samples + pad }
        var generator = NoiseGenerator(seed: 42)
        return (pad + samples + pad).map { sample in
            Int16(clamping: Int(sample) + generator.next(amplitude: 8))
        }
    }

    /// Root mean square of `samples`.
    static func rms(_ samples: [Int16]) -> Double {
        guard !samples.isEmpty else { return 0 }
        let sum = samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        return (sum / Double(samples.count)).squareRoot()
    }
}

/// A tiny linear congruential generator so the noise is the same on every run.
struct NoiseGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next(amplitude: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(2 * amplitude + 1)) - amplitude
    }
}
