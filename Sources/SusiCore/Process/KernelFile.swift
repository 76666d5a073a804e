import Foundation

/// Files the kernel makes up as they are read (/proc, /sys).
public enum KernelFile {
    /// The whole of `path`, read to its end; nil when it cannot be opened. Foundation's
    /// `String(contentsOfFile:)` and `FileManager.contents(atPath:)` stop after the first
    /// 4 KiB of such a file, which reports its size as 0.
    public static func read(_ path: String) -> Data? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return handle.readDataToEndOfFile()
    }
}
