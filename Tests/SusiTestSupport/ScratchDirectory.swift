import Foundation

/// A fresh directory under the temporary directory for one test, removed by `remove()`
/// (call it from `tearDown`).
public struct ScratchDirectory: Sendable {
    /// The directory's path.
    public let path: String

    /// Creates `<tmp>/<label>-<random>`.
    public init(_ label: String = "susi-test") throws {
        path = NSTemporaryDirectory() + "\(label)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Removes the directory and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
