import Foundation
import XCTest

@testable import SusiCore

/// Runs the built `susi` binary in a scratch config directory and captures what it prints.
struct CLIRunner {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// A temporary directory used as XDG_CONFIG_HOME; removed by `cleanUp()`.
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "susi-cli-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            atPath: directory + "/run", withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    }

    /// The environment `susi` runs with here: the config under the directory, and the runtime
    /// directory too. eSpeak NG 1.51 opens an audio device when it starts, even for the
    /// synchronous output susi uses, so every susi that loads a voice connects to PulseAudio;
    /// without XDG_RUNTIME_DIR libpulse makes a /tmp/pulse-XXXXXXXXXXXX directory for each new
    /// config home and never removes it.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = directory
        environment["XDG_RUNTIME_DIR"] = directory + "/run"
        return environment
    }

    /// The config file the binary uses by default here.
    var configPath: String { directory + "/susi/config.json" }

    /// The `susi` executable, built next to the test bundle.
    static var executable: URL {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let beside = bundle.appendingPathComponent("susi")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return Bundle.main.bundleURL.appendingPathComponent("susi")
    }

    /// `susi ARGS` with its config under the directory and `extra` in its environment.
    private func makeProcess(_ arguments: [String], environment extra: [String: String]) -> Process {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        process.environment = environment.merging(extra) { $1 }
        return process
    }

    /// Runs `susi ARGS`, with `input` on standard input, and waits for it.
    func run(_ arguments: [String], input: String? = nil, environment extra: [String: String] = [:]) throws -> Result {
        let process = makeProcess(arguments, environment: extra)
        let out = Pipe()
        let err = Pipe()
        let stdin = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Starts `susi ARGS` without waiting; its output goes to files in the directory.
    func start(_ arguments: [String], environment extra: [String: String] = [:]) throws -> Process {
        let process = makeProcess(arguments, environment: extra)
        _ = FileManager.default.createFile(atPath: directory + "/background.out", contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: directory + "/background.out")
        process.standardError = FileHandle(forWritingAtPath: directory + "/background.out")
        try process.run()
        return process
    }

    func cleanUp() {
        try? FileManager.default.removeItem(atPath: directory)
    }
}

extension CLIRunner {
    /// A WAV file of "susi, <text>" (`wakeWord`, <text>; the text alone when it is empty) for
    /// each text, said by `susi say` (eSpeak NG en-us), with `gapMs` of silence before each and
    /// after the last, then `tailMs` more, under a faint noise floor (as a quiet room has).
    func spokenRequests(_ texts: [String], wakeWord: String = "susi", gapMs: Int = 2500, tailMs: Int) throws -> String {
        var samples = [Int16](repeating: 0, count: gapMs * 16)
        let said = directory + "/said.wav"
        for text in texts {
            let utterance = wakeWord.isEmpty ? text : "\(wakeWord), \(text)"
            XCTAssertEqual(try run(["say", "--voice", "en-us", utterance, "-o", said]).status, 0)
            samples += try AudioConverter.convert(try WAVFile.read(path: said), to: .speech).samples
            samples += [Int16](repeating: 0, count: gapMs * 16)
        }
        samples += [Int16](repeating: 0, count: tailMs * 16)
        let path = directory + "/requests-\(UUID().uuidString).wav"
        try WAVFile.write(AudioChunk(format: .speech, samples: Self.underNoiseFloor(samples)), to: path)
        return path
    }

    /// `text` said by flite's `voice`, at 16 kHz; skips the test when flite is not installed.
    func flite(_ text: String, voice: String = "slt") throws -> [Int16] {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/flite") else { throw XCTSkip("install flite") }
        let path = directory + "/flite-\(UUID().uuidString).wav"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/flite")
        process.arguments = ["-voice", voice, "-t", text, "-o", path]
        try process.run()
        process.waitUntilExit()
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try AudioConverter.convert(try WAVFile.read(path: path), to: .speech).samples
    }

    /// `samples` with a faint pseudo-random noise floor added (peak `amplitude` / 2), as a quiet
    /// room has: synthesised speech holds exact digital silence, which no microphone gives.
    /// The same `seed` gives the same noise.
    static func underNoiseFloor(_ samples: [Int16], seed: UInt32 = 3, amplitude: Int = 160) -> [Int16] {
        var seed = seed
        return samples.map { sample in
            seed = seed &* 1_103_515_245 &+ 12345
            return sample &+ Int16(Int(seed >> 16) % amplitude - amplitude / 2)
        }
    }
}
