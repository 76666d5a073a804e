import Foundation
import XCTest

/// A private ALSA configuration with `type file` PCMs, so PortAudio's real ALSA backend can be
/// exercised without a sound card.
///
/// `ALSA_CONFIG_PATH` replaces ALSA's whole configuration (the system `alsa.conf` is not read),
/// so the file defines everything it uses, including the `null` slave; that also keeps ALSA from
/// probing absent cards. ALSA reads the variable when PortAudio initialises it, so it is set
/// before any `PortAudioSession` exists and restored afterwards.
final class ALSATestConfig {
    let directory: String
    /// Raw S16_LE samples the `susicapture` PCM delivers when recorded from.
    var captureInput: String { directory + "/in.raw" }
    /// Raw S16_LE samples written to the `susiplayback` PCM.
    var playbackOutput: String { directory + "/out.raw" }
    private let previous: String?

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("susi-alsa-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let config = """
            pcm.susicapture {
                type file
                slave.pcm { type null }
                file "\(directory)/capture-copy.raw"
                infile "\(directory)/in.raw"
                format "raw"
            }
            pcm.susiplayback {
                type file
                slave.pcm { type null }
                file "\(directory)/out.raw"
                format "raw"
            }
            pcm.!default "susiplayback"

            """
        try Data(config.utf8).write(to: URL(fileURLWithPath: directory + "/asoundrc"))
        try Data().write(to: URL(fileURLWithPath: directory + "/in.raw"))
        previous = ProcessInfo.processInfo.environment["ALSA_CONFIG_PATH"]
        setenv("ALSA_CONFIG_PATH", directory + "/asoundrc", 1)
    }

    /// Restores the environment and removes the files.
    func remove() {
        if let previous { setenv("ALSA_CONFIG_PATH", previous, 1) } else { unsetenv("ALSA_CONFIG_PATH") }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Writes samples as raw little-endian int16 for the capture PCM to deliver.
    func setCaptureInput(_ samples: [Int16]) throws {
        let data = samples.map { $0.littleEndian }.withUnsafeBytes { Data($0) }
        try data.write(to: URL(fileURLWithPath: captureInput))
    }

    /// The raw little-endian int16 samples the playback PCM has written.
    func playedSamples() throws -> [Int16] {
        let data = try Data(contentsOf: URL(fileURLWithPath: playbackOutput))
        return stride(from: 0, to: data.count - 1, by: 2).map { index in
            Int16(bitPattern: UInt16(data[data.startIndex + index]) | UInt16(data[data.startIndex + index + 1]) << 8)
        }
    }
}
