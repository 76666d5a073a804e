import Foundation
import Synchronization

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
    /// Blocks until pip is done (at most `timeout` seconds; it is killed then).
    /// - Throws: `player-update-failed` with pip's last words when pip fails or takes too long.
    public func refresh(indexURL: String? = nil, timeout: TimeInterval = 300) throws(PlayerError) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: virtualenv + "/bin/python3")
        process.arguments =
            [
                "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--retries", "2", "--timeout", "20",
                "--upgrade", "--no-deps",
            ]
            + (indexURL.map { ["--index-url", $0] } ?? []) + ["yt-dlp", "yt-dlp-ejs"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw PlayerError(.updateFailed, "cannot run pip in \(virtualenv): \(error.localizedDescription)")
        }
        // pip's complaints are read while it runs, so a full pipe never stalls it.
        let said = Mutex(Data())
        let collected = DispatchSemaphore(value: 0)
        let handle = errors.fileHandleForReading
        Thread.detachNewThread {
            let data = handle.readDataToEndOfFile()
            said.withLock { $0 = data }
            collected.signal()
        }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(50_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        collected.wait()
        let lastWords = String(decoding: said.withLock { $0 }, as: UTF8.self).split(whereSeparator: \.isNewline).suffix(2)
            .joined(separator: " ")
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
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
    /// cannot be started, fails, or takes longer than `timeout` seconds (it is killed then).
    public static func firstLine(of executable: String, arguments: [String], timeout: TimeInterval = 10) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return nil
        }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            return nil
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty }
    }
}
