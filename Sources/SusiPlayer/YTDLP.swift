import Foundation

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
