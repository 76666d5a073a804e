import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What an answer (from the SUSI server, a skill's fetched data, the built-in brain) may make
/// the player open.
///
/// Answers come from the network, so they may play only:
/// - `http`/`https` URLs (mpv refuses local entries in a playlist fetched from the network);
/// - searches: `ytdl://ytsearchN:…` and `ytdl://scsearchN:…`;
/// - regular files under one of `mediaDirectories` (`player.media_dirs`), after resolving
///   symlinks and `..`, given as an absolute path or a `file://` URL.
///
/// Never a directory (mpv would walk it, through `/proc` loops for `/`), a device, a FIFO or a
/// socket, and never anything under `/dev`, `/proc` or `/sys`, whatever the media directories
/// say. Other schemes (`rtsp`, `lavfi`, `ytdl://` of anything but a search, …) are refused.
/// A check touches the file system (it resolves the path and looks at what is there) but
/// changes nothing; safe from any thread.
public struct MediaSourcePolicy: Sendable, Equatable {
    /// What `check` decided.
    public enum Decision: Sendable, Equatable {
        /// Play this location: the one given, or for a file its resolved absolute path, so a
        /// symlink swapped after the check cannot redirect the player.
        case allowed(String)
        /// Do not play it; the reason names what was wrong, for the log and the error event.
        case refused(String)
    }

    /// File-system trees never played from, even when a media directory contains them.
    public static let forbiddenTrees = ["/dev", "/proc", "/sys"]

    /// The directories answers may play files from, `~/` already expanded.
    public let mediaDirectories: [String]

    /// A policy allowing files under `mediaDirectories`; a leading `~/` is read against `home`.
    public init(mediaDirectories: [String], home: String = NSHomeDirectory()) {
        self.mediaDirectories = mediaDirectories.map { directory in
            directory.hasPrefix("~/") ? home + directory.dropFirst() : directory
        }
    }

    /// The policy of `config`'s `player.media_dirs`.
    public init(config: Config, home: String = NSHomeDirectory()) {
        self.init(mediaDirectories: config.player.mediaDirectories, home: home)
    }

    /// Whether the player may open `location` (what it would be handed: a URL or a path).
    public func check(_ location: String) -> Decision {
        guard let separator = location.range(of: "://") else {
            guard location.hasPrefix("/") else { return .refused("'\(location)' is neither a URL nor an absolute path") }
            return checkFile(location)
        }
        let scheme = location[..<separator.lowerBound].lowercased()
        let rest = location[separator.upperBound...]
        switch scheme {
        case "http", "https":
            return .allowed(location)
        case "ytdl":
            return Self.isSearch(rest) ? .allowed(location) : .refused("ytdl:// is allowed for searches only")
        case "file":
            guard let url = URL(string: location), url.host.map({ $0.isEmpty || $0 == "localhost" }) ?? true else {
                return .refused("'\(location)' is not a local file URL")
            }
            return checkFile(url.path)
        default:
            return .refused("the '\(scheme)' scheme is not allowed in answers")
        }
    }

    // MARK: Helpers

    /// `ytsearch:`, `ytsearch1:`, `scsearch5:` …
    private static func isSearch(_ rest: Substring) -> Bool {
        let lowered = rest.lowercased()
        for prefix in ["ytsearch", "scsearch"] where lowered.hasPrefix(prefix) {
            let count = lowered.dropFirst(prefix.count).prefix { $0.isASCII && $0.isNumber }
            return lowered.dropFirst(prefix.count + count.count).hasPrefix(":")
        }
        return false
    }

    private func checkFile(_ path: String) -> Decision {
        guard let resolved = Self.resolve(path) else {
            return .refused("no such file: \(path)")
        }
        if Self.forbiddenTrees.contains(where: { Self.isInside(resolved, $0) }) {
            return .refused("\(resolved) is a system file")
        }
        var info = stat()
        guard stat(resolved, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            return .refused("\(resolved) is not a regular file")
        }
        let roots = mediaDirectories.compactMap(Self.resolve)
        guard roots.contains(where: { Self.isInside(resolved, $0) }) else {
            return .refused(
                roots.isEmpty
                    ? "answers may not play local files (no player.media_dirs set)"
                    : "\(resolved) is outside player.media_dirs")
        }
        return .allowed(resolved)
    }

    /// The canonical absolute path: symlinks, `.` and `..` resolved; nil when it does not exist.
    private static func resolve(_ path: String) -> String? {
        guard path.hasPrefix("/"), let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func isInside(_ path: String, _ directory: String) -> Bool {
        directory == "/" || path == directory || path.hasPrefix(directory + "/")
    }
}
