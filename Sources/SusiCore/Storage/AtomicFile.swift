import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Whole-file writes that never lose data, for every state file of the speaker (config,
/// Wi-Fi, account, setup state, player state, timers, caches).
///
/// - A write goes to a unique temporary file in the same directory (`mkstemp`), is fsynced,
///   renamed over the old file, and the directory is fsynced: a reader sees the old or the
///   new file, never half of one, and a crash keeps one of them.
/// - Every write and every read-modify-write holds an exclusive `flock` on a lock file beside
///   the file (`.NAME.lock`, kept for good: removing it would let two writers lock two
///   different files). `flock` locks belong to an open file description, so they exclude
///   other threads of this process as well as other processes (`susi run` and
///   `susi setup serve` may run together). Plain reads need no lock: a rename is atomic.
///
/// Failures are `config-unwritable` / `config-unreadable` errors (these files live beside
/// the config); callers wrap them into their own stage's error where that reads better.
/// Blocking: waits for the lock as long as another writer holds it, which is one write.
public enum AtomicFile {
    /// What a read-modify-write does with the file.
    public enum Change: Sendable, Equatable {
        /// Leave the file as it is.
        case keep
        /// Replace it (or create it) with these bytes.
        case replace(Data)
        /// Remove it (nothing happens when it is missing).
        case remove
    }

    /// Writes `data` to `path` atomically with permission bits `mode`, holding the file's lock;
    /// creates the directory (0700) when missing.
    public static func write(_ data: Data, to path: String, mode: mode_t = 0o600) throws(ConfigError) {
        try update(path, mode: mode) { _ throws(ConfigError) in .replace(data) }
    }

    /// Reads `path` (nil when missing), lets `change` decide, and carries the decision out, all
    /// while holding the file's lock, so no other writer can slip in between.
    ///
    /// - Parameter limit: the most bytes the file may hold (see `read`); nil: no limit.
    /// - Throws: `config-unreadable` when the file exists but cannot be read,
    ///   `config-too-large` when it is over `limit`, what `change` throws, and
    ///   `config-unwritable` when the directory, lock or file cannot be written.
    public static func update(
        _ path: String, mode: mode_t = 0o600, limit: Int? = nil, _ change: (Data?) throws(ConfigError) -> Change
    ) throws(ConfigError) {
        try withLock(path) { () throws(ConfigError) in
            switch try change(try read(path, limit: limit)) {
            case .keep: return
            case .replace(let data): try replace(path, with: data, mode: mode)
            case .remove:
                guard unlink(path) == 0 || errno == ENOENT else {
                    throw ConfigError(.unwritable, "cannot remove \(path): \(lastError())")
                }
                syncDirectory(of: path)
            }
        }
    }

    /// Runs `body` holding the exclusive lock of `path`, creating the directory (0700) and
    /// the lock file when missing. Not reentrant: `body` must not lock the same file again.
    public static func withLock<T>(_ path: String, _ body: () throws(ConfigError) -> T) throws(ConfigError) -> T {
        try createDirectory(of: path)
        let lockPath = self.lockPath(for: path)
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw ConfigError(.unwritable, "cannot open the lock file \(lockPath): \(lastError())")
        }
        defer { close(fd) }
        var locked = flock(fd, LOCK_EX)
        while locked != 0 && errno == EINTR { locked = flock(fd, LOCK_EX) }
        guard locked == 0 else {
            throw ConfigError(.unwritable, "cannot lock \(lockPath): \(lastError())")
        }
        // Closing the descriptor (deferred above) releases the lock, on every path out.
        return try body()
    }

    /// The contents of `path`, or nil when it does not exist.
    ///
    /// With a `limit`, at most `limit + 1` bytes are ever read, so a huge file (or a device
    /// such as `/dev/zero` put where the file should be) costs no more memory than a full one.
    ///
    /// - Throws: `config-unreadable` when it exists but cannot be read (a directory, no
    ///   permission); `config-too-large`, naming the file and the limit, when it holds more
    ///   than `limit` bytes.
    public static func read(_ path: String, limit: Int? = nil) throws(ConfigError) -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw ConfigError(.unreadable, "cannot read \(path): \(lastError())")
        }
        defer { close(fd) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            // One byte past the limit tells a file of exactly `limit` bytes from a longer one.
            let wanted = limit.map { min(buffer.count, max($0, 0) + 1 - data.count) } ?? buffer.count
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, wanted) }
            if count == 0 { return data }
            if count < 0 {
                if errno == EINTR { continue }
                throw ConfigError(.unreadable, "cannot read \(path): \(lastError())")
            }
            data.append(contentsOf: buffer[0..<count])
            if let limit, data.count > limit {
                throw ConfigError(
                    .tooLarge, "\(path): larger than \(describe(bytes: limit)), the limit for this file; it was not read")
            }
        }
    }

    /// `1 MiB` for whole mebibytes, `N KiB` for whole kibibytes, else `N bytes`.
    static func describe(bytes: Int) -> String {
        if bytes > 0, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes > 0, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }

    /// The lock file of `path`: `.NAME.lock` in the same directory.
    public static func lockPath(for path: String) -> String {
        sibling(of: path, named: "." + (path as NSString).lastPathComponent + ".lock")
    }

    // MARK: Steps

    /// Temporary file, fsync, rename, directory fsync. Called with the lock held.
    private static func replace(_ path: String, with data: Data, mode: mode_t) throws(ConfigError) {
        let prefix = "." + (path as NSString).lastPathComponent + ".tmp-"
        removeStaleTemporaries(of: path, prefix: prefix)
        var template = Array(sibling(of: path, named: prefix + "XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard fd >= 0 else {
            throw ConfigError(.unwritable, "cannot write \(path): \(lastError())")
        }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // Not inherited by a player or hook started meanwhile (mkostemp is not in Glibc's overlay).
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var failure: String?
        if fchmod(fd, mode) != 0 || !writeAll(data, to: fd) || fsync(fd) != 0 {
            failure = lastError()
        }
        close(fd)
        if failure == nil, rename(temporary, path) != 0 {
            failure = lastError()
        }
        if let failure {
            unlink(temporary)
            throw ConfigError(.unwritable, "cannot write \(path): \(failure)")
        }
        syncDirectory(of: path)
    }

    /// Removes temporaries a killed writer left (SIGKILL, power loss). Safe with the lock
    /// held: every writer holds it for as long as its temporary exists.
    private static func removeStaleTemporaries(of path: String, prefix: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory(of: path))) ?? []
        for name in names where name.hasPrefix(prefix) && name.count == prefix.count + 6 {
            unlink(sibling(of: path, named: name))
        }
    }

    private static func writeAll(_ data: Data, to fd: Int32) -> Bool {
        data.withUnsafeBytes { buffer -> Bool in
            guard let base = buffer.baseAddress else { return true }
            var offset = 0
            while offset < buffer.count {
                let count = Glibc.write(fd, base + offset, buffer.count - offset)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return false }
                offset += count
            }
            return true
        }
    }

    /// Makes a rename or removal in the directory itself durable. Best effort: the data is
    /// already safe in the file, and some file systems refuse fsync on a directory.
    private static func syncDirectory(of path: String) {
        let fd = open(directory(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    private static func createDirectory(of path: String) throws(ConfigError) {
        let directory = directory(of: path)
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ConfigError(.unwritable, "cannot create directory \(directory): \(error.localizedDescription)")
        }
    }

    private static func directory(of path: String) -> String {
        let directory = (path as NSString).deletingLastPathComponent
        return directory.isEmpty ? "." : directory
    }

    private static func sibling(of path: String, named name: String) -> String {
        directory(of: path) + "/" + name
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}
