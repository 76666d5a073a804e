import Foundation
import SusiCore
import SusiModel
import Synchronization

/// Hands every event to several sinks, in order.
public struct FanOutEventSink: EventSink {
    public let sinks: [any EventSink]

    public init(_ sinks: [any EventSink]) { self.sinks = sinks }

    public func emit(_ event: PipelineEvent) {
        for sink in sinks { sink.emit(event) }
    }
}

/// Remembers the last thing said and the skill that said it, for "say that again" and for
/// the voice-side skill features ("rate this skill").
public final class ConversationMemory: EventSink {
    private struct Remembered {
        var answer: String?
        var skill: String?
    }

    private let remembered = Mutex(Remembered())
    private let ignoredSkills: Set<String>

    /// Answers of `ignoredSkills` (those that talk about other skills) do not change `lastSkill`.
    public init(ignoredSkills: Set<String> = []) {
        self.ignoredSkills = ignoredSkills
    }

    public func emit(_ event: PipelineEvent) {
        switch event.kind {
        case .answer(_, _, let answeringSkill) where !ignoredSkills.contains(answeringSkill ?? ""):
            remembered.withLock { $0.skill = answeringSkill }
        case .speakStart(let text): remembered.withLock { $0.answer = text }
        default: break
        }
    }

    /// The last words spoken, if any.
    public var lastAnswer: String? { remembered.withLock { $0.answer } }

    /// The skill that gave the last answer, when known.
    public var lastSkill: String? { remembered.withLock { $0.skill } }
}

/// Prints the conversation for people: what was heard, understood and answered, made safe
/// for a terminal (`ControlCharacters.escapedForTerminal`).
public final class ConversationPrinter: EventSink {
    /// Held while writing, so lines from several threads do not interleave.
    private let writing = Mutex(())
    private let write: @Sendable (String) -> Void

    /// `write` receives one line at a time (without newline).
    public init(write: @escaping @Sendable (String) -> Void) { self.write = write }

    public func emit(_ event: PipelineEvent) {
        let seconds = String(format: "%6.2f s", Double(event.audioMs) / 1000)
        let line: String?
        switch event.kind {
        case .wake(let phrase): line = "\(seconds)  heard the wake word \"\(phrase)\""
        case .transcript(let text): line = "\(seconds)  understood: \"\(text)\""
        case .speakStart(let text): line = "\(seconds)  answered: \(text)"
        case .play(let type, let identifier, let identifierType): line = "\(seconds)  \(type): \(identifier) (\(identifierType))"
        case .player(let command): line = "\(seconds)  player: \(command)"
        case .error(let stage, let code, let message): line = "\(seconds)  \(stage.rawValue) problem \(code): \(message)"
        default: line = nil
        }
        guard let line else { return }
        // Answers and media names come from a server: no escape codes or bidi reordering.
        writing.withLock { _ in write(ControlCharacters.escapedForTerminal(line)) }
    }
}
