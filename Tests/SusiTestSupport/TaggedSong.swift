import Foundation
import XCTest

/// Makes a one-second 440 Hz FLAC at `path` (folders made as needed) with `tags`, ffmpeg's
/// metadata names (`artist`, `album`, `title`, `track`); skips the test without ffmpeg.
public func taggedSong(_ path: String, tags: [String: String] = [:]) throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") else {
        throw XCTSkip("ffmpeg is not installed (make deps installs it)")
    }
    try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
    process.arguments =
        ["-v", "quiet", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=1"]
        + tags.sorted { $0.key < $1.key }.flatMap { ["-metadata", "\($0.key)=\($0.value)"] } + [path]
    try process.run()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0, "ffmpeg made \(path)")
}
