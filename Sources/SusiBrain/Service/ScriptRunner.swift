import Foundation
import Synchronization

/// Runs the script of a `!javascript:` intent; its completion value becomes `$!$`.
///
/// Called on the answering thread. Implementations must return within their time limit
/// whatever the script does: a runaway script is a `brain-script-failed` error, never a hang.
public protocol ScriptRunner: Sendable {
    /// The script's completion value as text (a number written as SUSI writes it, see
    /// `ScriptNumber`), or a `brain-script-failed` error.
    func run(_ script: String) throws(BrainError) -> String
}

/// Runs scripts in `susi-js` helper processes (mujs from Debian): neither mujs nor duktape
/// can interrupt a running script, but a process can always be ended.
///
/// A started helper is kept (`susi-js --serve`) and runs the next script in a fresh
/// interpreter, so an answer does not wait for a process to start; a helper whose script
/// failed by running out of time, or that has run `scriptsPerHelper` scripts, is ended and
/// the next script starts a new one. Up to `idleHelpers` wait between answers; answers on more
/// threads at once start more.
///
/// Limits per script: `timeLimit` of CPU time (enforced inside the helper by a virtual
/// timer), `memoryLimit` bytes of heap, no file, socket or process (see `susi-js`), and a
/// wall-clock backstop of `timeLimit` plus `waitAllowance` (a waiting helper) or
/// `startAllowance` (a new one) after which the process is killed.
public struct ProcessScriptRunner: ScriptRunner {
    /// CPU time a script may use, as SUSI allows.
    public static let timeLimit = 0.05
    /// Heap a script may use.
    public static let memoryLimit = 16 << 20
    /// Extra wall time for a waiting helper's reply on a busy machine.
    public static let waitAllowance = 0.5
    /// Extra wall time for a new helper's first reply: starting the process took over 0.5 s
    /// on this 2-core machine under load, and the answer was lost.
    public static let startAllowance = 3.0
    /// Scripts one helper runs before it is replaced (bounds its CPU time and any leak).
    public static let scriptsPerHelper = 64
    /// Helpers kept waiting between answers.
    public static let idleHelpers = 2

    /// The `susi-js` executable.
    public let executable: String
    private let pool = HelperPool()

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

    /// How many helpers wait for a script now (for tests).
    var idleHelperCount: Int { pool.count }

    /// Runs `script` in a waiting helper, or a new one; see the type's limits.
    public func run(_ script: String) throws(BrainError) -> String {
        let helper: ScriptHelper
        let allowance: Double
        if let waiting = pool.take() {
            (helper, allowance) = (waiting, Self.waitAllowance)
        } else {
            (helper, allowance) = (try ScriptHelper(executable: executable), Self.startAllowance)
        }
        let reply: String
        do throws(BrainError) {
            reply = try helper.run(Data(script.utf8.prefix(65_536)), deadline: Self.timeLimit + allowance)
        } catch {
            helper.stop()
            throw error
        }
        pool.give(helper)
        if reply.hasPrefix("ok\n") { return reply.dropFirst(3).trimmedBlanks }
        if reply.hasPrefix("number\n"), let value = Double(reply.dropFirst(7).trimmedBlanks) {
            return ScriptNumber.text(of: value, script: script)
        }
        throw BrainError(.scriptFailed, "script error: \(reply.hasPrefix("error\n") ? String(reply.dropFirst(6)) : reply)")
    }
}

/// The helpers waiting for a script.
private final class HelperPool: Sendable {
    private let idle = Mutex<[ScriptHelper]>([])

    func take() -> ScriptHelper? { idle.withLock { $0.popLast() } }

    var count: Int { idle.withLock { $0.count } }

    /// Keeps `helper` for the next script, unless it is worn out or enough wait already.
    func give(_ helper: ScriptHelper) {
        let kept =
            helper.scriptsRun < ProcessScriptRunner.scriptsPerHelper
            && idle.withLock { helpers in
                guard helpers.count < ProcessScriptRunner.idleHelpers else { return false }
                helpers.append(helper)
                return true
            }
        if !kept { helper.stop() }
    }
}

/// One `susi-js --serve` process. Used by one thread at a time: the pool hands it out and
/// takes it back.
private final class ScriptHelper: @unchecked Sendable {
    // @unchecked: it wraps a child process and its pipes; the pool's mutex hands it to one
    // thread at a time, and `scriptsRun` changes only on that thread.
    private let process = Process()
    private let input: FileHandle
    private let output: FileHandle
    private(set) var scriptsRun = 0

    init(executable: String) throws(BrainError) {
        let inputPipe = Pipe()
        let outputPipe = Pipe()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [
            String(Int(ProcessScriptRunner.timeLimit * 1000)), String(ProcessScriptRunner.memoryLimit), "--serve",
        ]
        process.standardInput = inputPipe
        process.standardOutput = outputPipe
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw BrainError(.scriptFailed, "cannot start \(executable): \(error.localizedDescription)")
        }
        input = inputPipe.fileHandleForWriting
        output = outputPipe.fileHandleForReading
    }

    deinit {
        // End of input ends a waiting helper.
        try? input.close()
        try? output.close()
    }

    /// Sends one script and waits up to `deadline` seconds for the framed reply.
    func run(_ script: Data, deadline: Double) throws(BrainError) -> String {
        scriptsRun += 1
        // The helper reads the whole request before it runs anything, so this cannot block
        // for long; a helper that ended shows as a failed read below.
        do {
            try input.write(contentsOf: Data("\(script.count)\n".utf8) + script)
        } catch {
            throw BrainError(.scriptFailed, "the script helper is gone")
        }
        let end = ContinuousClock.now.advanced(by: .milliseconds(Int(deadline * 1000)))
        var received: [UInt8] = []
        var expected: Int?
        var buffer = [UInt8](repeating: 0, count: 4096)
        while expected.map({ received.count < $0 }) ?? true {
            let left = ContinuousClock.now.duration(to: end)
            guard left > .zero else { throw BrainError(.scriptFailed, "the script ran past its time limit") }
            var ready = pollfd(fd: output.fileDescriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            guard poll(&ready, 1, milliseconds) >= 0 || errno == EINTR else {
                throw BrainError(.scriptFailed, "cannot read the script helper")
            }
            guard ready.revents != 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(output.fileDescriptor, $0.baseAddress, $0.count) }
            // The helper ended mid-script: its CPU timer (or memory) stopped the script.
            guard count > 0 else { throw BrainError(.scriptFailed, "the script ran out of time") }
            received += buffer[0..<count]
            if expected == nil, let newline = received.firstIndex(of: 10) {
                guard let length = Int(String(decoding: received[..<newline], as: UTF8.self)) else {
                    throw BrainError(.scriptFailed, "the script helper answered out of turn")
                }
                received.removeSubrange(...newline)
                expected = length
            }
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Ends the helper now (its script ran too long, or it is retired).
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
