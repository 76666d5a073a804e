import Foundation

/// Runs the script of a `!javascript:` intent; its completion value becomes `$!$`.
///
/// Called on the answering thread. Implementations must return within their time limit
/// whatever the script does: a runaway script is a `brain-script-failed` error, never a hang.
public protocol ScriptRunner: Sendable {
    /// The script's completion value as text, or a `brain-script-failed` error.
    func run(_ script: String) throws(BrainError) -> String
}

/// Runs each script in a fresh `susi-js` process (mujs from Debian): neither mujs nor
/// duktape can interrupt a running script, but a process can always be ended.
///
/// Limits per script: `timeLimit` of CPU time (enforced inside the helper by a virtual
/// timer), `memoryLimit` bytes of heap, no file, socket or process (see `susi-js`), and a
/// wall-clock backstop of `timeLimit` plus `startAllowance` after which the process is killed.
public struct ProcessScriptRunner: ScriptRunner {
    /// CPU time a script may use, as SUSI allows.
    public static let timeLimit = 0.05
    /// Heap a script may use.
    public static let memoryLimit = 16 << 20
    /// Extra wall time for starting the process on a busy machine.
    public static let startAllowance = 0.5

    /// The `susi-js` executable.
    public let executable: String

    /// A runner using `executable`; nil when it is not an executable file.
    public init?(executable: String) {
        guard FileManager.default.isExecutableFile(atPath: executable) else { return nil }
        self.executable = executable
    }

    /// The `susi-js` installed next to the running program (`make install` puts both in one
    /// folder; `swift build` builds both into one), or nil.
    public static func besideExecutable() -> ProcessScriptRunner? {
        let program = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return ProcessScriptRunner(
            executable: program.deletingLastPathComponent().appendingPathComponent("susi-js").path)
    }

    /// Runs `script` in a new `susi-js` process; see the type's limits.
    public func run(_ script: String) throws(BrainError) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [String(Int(Self.timeLimit * 1000)), String(Self.memoryLimit)]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        do {
            try process.run()
        } catch {
            throw BrainError(.scriptFailed, "cannot start \(executable): \(error.localizedDescription)")
        }
        // The helper reads at most 64 KiB and the pipe holds that much, so this cannot block.
        input.fileHandleForWriting.write(Data(script.utf8.prefix(65_536)))
        try? input.fileHandleForWriting.close()
        if finished.wait(timeout: .now() + Self.timeLimit + Self.startAllowance) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            finished.wait()
            throw BrainError(.scriptFailed, "the script ran past its time limit")
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw BrainError(.scriptFailed, "the script ran out of time")
        }
        if text.hasPrefix("ok\n") { return text.dropFirst(3).trimmedBlanks }
        throw BrainError(.scriptFailed, "script error: \(text.hasPrefix("error\n") ? String(text.dropFirst(6)) : text)")
    }
}
