import Foundation
import SusiCore

/// The yt-dlp that mpv's ytdl hook runs for "play ..." searches and YouTube: the virtualenv
/// that `make deps` makes in `.build/yt-dlp` and `make install` beside the binary
/// (`PREFIX/lib/susi/yt-dlp`), with the pinned yt-dlp and, where there is a wheel for the
/// machine, Deno, the JavaScript runtime YouTube needs.
///
/// Without one, mpv falls back to whatever `yt-dlp` is on `PATH` (Debian's is too old for
/// YouTube).
public struct YTDLP: Sendable, Equatable {
    /// The virtualenv's directory.
    public var virtualenv: String
    /// Its `bin/yt-dlp`.
    public var executable: String { virtualenv + "/bin/yt-dlp" }
    /// Its `bin/deno`, when installed.
    public var javaScriptRuntime: String? {
        let deno = virtualenv + "/bin/deno"
        return FileManager.default.isExecutableFile(atPath: deno) ? deno : nil
    }

    /// The virtualenv at `virtualenv`; nil when it holds no executable `bin/yt-dlp`.
    public init?(virtualenv: String) {
        guard FileManager.default.isExecutableFile(atPath: virtualenv + "/bin/yt-dlp") else { return nil }
        self.virtualenv = virtualenv
    }

    /// The virtualenv that belongs to the binary at `executablePath` (default: this process,
    /// symlinks resolved): `../lib/susi/yt-dlp` beside an installed binary, or `.build/yt-dlp`
    /// of the build tree it was built in. Nil when neither exists.
    public static func locate(executablePath: String? = nil) -> YTDLP? {
        candidates(executablePath: executablePath ?? currentExecutable()).lazy.compactMap(YTDLP.init(virtualenv:)).first
    }

    /// Where `locate` looks, in order, for the binary at `executablePath`.
    public static func candidates(executablePath: String) -> [String] {
        let directory = URL(fileURLWithPath: executablePath).deletingLastPathComponent()
        var places = [directory.deletingLastPathComponent().appendingPathComponent("lib/susi/yt-dlp").path]
        if let build = executablePath.range(of: "/.build/") {
            places.append(String(executablePath[..<build.lowerBound]) + "/.build/yt-dlp")
        }
        return places
    }

    private static func currentExecutable() -> String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    }

    /// The mpv options that make its ytdl hook run this yt-dlp, with this Deno for YouTube's
    /// JavaScript.
    public var mpvArguments: [String] {
        var arguments = ["--script-opts-append=ytdl_hook-ytdl_path=\(executable)"]
        if let javaScriptRuntime {
            arguments.append("--ytdl-raw-options-append=js-runtimes=deno:\(javaScriptRuntime)")
        }
        return arguments
    }

    /// Upgrades yt-dlp and yt-dlp-ejs in the virtualenv to the newest releases on PyPI (or on
    /// `indexURL`, a PEP 503 index), as `susi update` does when YouTube has changed; returns
    /// the version now installed.
    ///
    /// Blocks until pip is done (at most `timeout` seconds; it is stopped then).
    /// - Throws: `player-update-failed` with pip's last words when pip fails or takes too long.
    public func refresh(indexURL: String? = nil, timeout: TimeInterval = 300) throws(PlayerError) -> String {
        let arguments =
            [
                "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--retries", "2", "--timeout", "20",
                "--upgrade", "--no-deps",
            ]
            + (indexURL.map { ["--index-url", $0] } ?? []) + ["yt-dlp", "yt-dlp-ejs"]
        let pip = ChildProcess(
            virtualenv + "/bin/python3", arguments: arguments, capture: .standardError, timeout: timeout
        ).run()
        if case .notStarted = pip.end {
            throw PlayerError(.updateFailed, "cannot run pip in \(virtualenv)")
        }
        let lastWords = pip.text.split(whereSeparator: \.isNewline).suffix(2).joined(separator: " ")
        guard pip.succeeded else {
            throw PlayerError(
                .updateFailed,
                "pip could not update yt-dlp in \(virtualenv): \(lastWords.isEmpty ? "no reason given" : lastWords)")
        }
        guard let version = version() else {
            throw PlayerError(.updateFailed, "yt-dlp in \(virtualenv) does not run after the update")
        }
        return version
    }

    /// `yt-dlp --version`'s answer, nil when it does not run within `timeout` seconds.
    public func version(timeout: TimeInterval = 10) -> String? {
        ToolVersion.firstLine(of: executable, arguments: ["--version"], timeout: timeout)
    }
}

/// The first line a tool prints for its version, for `susi doctor`.
public enum ToolVersion {
    /// The first non-empty line `executable arguments` prints on standard output; nil when it
    /// cannot be started, fails, or takes longer than `timeout` seconds (it is stopped then).
    public static func firstLine(of executable: String, arguments: [String], timeout: TimeInterval = 10) -> String? {
        let run = ChildProcess(executable, arguments: arguments, capture: .standardOutput, timeout: timeout).run()
        guard run.succeeded else { return nil }
        return run.text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .first { !$0.isEmpty }
    }
}
