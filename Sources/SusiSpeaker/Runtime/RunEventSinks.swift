import Foundation
import SusiCore
import SusiModel
import SusiPipeline

/// The event outputs of `susi run`: JSON Lines (`--events FILE|-`) and the lines for people
/// (`--conversation`).
public enum RunEventSinks {
    /// JSON Lines to `events` (a file, created or emptied; `-`: standard output) when given,
    /// and with `conversation` the heard / understood / answered lines, on standard output
    /// unless the JSON Lines go there (then on standard error).
    /// - Throws: `AudioError` (`unwritable`) when the events file cannot be written.
    public static func make(events: String?, conversation: Bool) throws(AudioError) -> [any EventSink] {
        var sinks: [any EventSink] = []
        if let events { sinks.append(JSONLinesEventSink(handle: try handle(events))) }
        if conversation {
            let output: FileHandle = events == "-" ? .standardError : .standardOutput
            sinks.append(ConversationPrinter { line in output.write(Data((line + "\n").utf8)) })
        }
        return sinks
    }

    private static func handle(_ path: String) throws(AudioError) -> FileHandle {
        if path == "-" { return .standardOutput }
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw AudioError(.unwritable, "cannot write events to \(path)")
        }
        return handle
    }
}
