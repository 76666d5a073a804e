import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Catches what a C library writes straight to standard error (file descriptor 2) while a
/// call runs, and writes it back without the lines asked to be dropped: TensorFlow Lite logs
/// "INFO: Created TensorFlow Lite XNNPACK delegate for CPU." through its own logger, which
/// its C API (2.x, as in the pinned wheel) offers no way to quiet.
///
/// Its warnings and errors stay visible, written back right after the call, and so does
/// whatever another thread wrote to standard error meanwhile (later, not lost). One catch at
/// a time, process-wide, since file descriptor 2 is the process's. When it cannot catch (no
/// temporary file), the call runs with standard error as it is.
enum StandardErrorFilter {
    private static let lock = NSLock()

    /// Runs `body` with standard error caught, then writes back every caught line (with its
    /// newline, if it had one) for which `drop` is false.
    static func run<Value>(dropping drop: (Substring) -> Bool, _ body: () -> Value) -> Value {
        lock.lock()
        defer { lock.unlock() }
        fflush(nil)
        guard let catcher = tmpfile() else { return body() }
        defer { fclose(catcher) }
        let saved = dup(STDERR_FILENO)
        guard saved >= 0 else { return body() }
        defer { close(saved) }
        guard dup2(fileno(catcher), STDERR_FILENO) >= 0 else { return body() }
        let value = body()
        fflush(nil)
        dup2(saved, STDERR_FILENO)
        let caught = readAll(fileno(catcher))
        guard !caught.isEmpty else { return value }
        var kept = ""
        var rest = Substring(String(decoding: caught, as: UTF8.self))
        while !rest.isEmpty {
            let end = rest.firstIndex(of: "\n").map { rest.index(after: $0) } ?? rest.endIndex
            if !drop(rest[..<end]) { kept += rest[..<end] }
            rest = rest[end...]
        }
        let bytes = Array(kept.utf8)
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = write(STDERR_FILENO, base + offset, buffer.count - offset)
                guard written > 0 else { break }
                offset += written
            }
        }
        return value
    }

    /// TensorFlow Lite's informational lines ("INFO: ..."), for `run(dropping:)`.
    static func isTensorFlowLiteInfo(_ line: Substring) -> Bool {
        line.hasPrefix("INFO: ")
    }

    /// Everything in the file open as `descriptor`, from its start.
    private static func readAll(_ descriptor: Int32) -> [UInt8] {
        guard lseek(descriptor, 0, SEEK_SET) == 0 else { return [] }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        return bytes
    }
}
