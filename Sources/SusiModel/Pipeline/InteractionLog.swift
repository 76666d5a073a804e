import Foundation
import SusiCore
import Synchronization

/// The last interactions (what was heard, what was answered, what was done), built from the
/// pipeline's events, for the web page's history; kept in a 0600 file so a restart keeps them.
///
/// An interaction runs from `wake` to `idle`; words spoken without a wake (timers, `/say`)
/// are not one. While `isPrivate` answers true nothing is recorded, and what was kept is
/// forgotten, file included. Thread-safe.
public final class InteractionLog: EventSink {
    /// One interaction, as the page lists it.
    public struct Interaction: Codable, Sendable, Equatable {
        /// When the wake word was heard.
        public var started: Date
        /// What was understood (the transcript, else the query the brain was asked).
        public var heard: String
        /// What was said back, sentence by sentence.
        public var answers: [String]
        /// What was done besides speaking: the answer's action types other than `answer`,
        /// and what was played (`audio_play youtube:abc`).
        public var actions: [String]
        /// The skill that answered, when known.
        public var skill: String?
        /// The last problem (`stt-no-speech: ...`), when there was one.
        public var problem: String?

        /// An interaction that began at `started` and has nothing in it yet.
        public init(
            started: Date, heard: String = "", answers: [String] = [], actions: [String] = [], skill: String? = nil,
            problem: String? = nil
        ) {
            self.started = started
            self.heard = heard
            self.answers = answers
            self.actions = actions
            self.skill = skill
            self.problem = problem
        }
    }

    private struct State {
        /// Finished interactions, oldest first.
        var finished: [Interaction]
        var current: Interaction?
    }

    /// How many interactions are kept.
    public let capacity: Int
    private let path: String?
    private let isPrivate: @Sendable () -> Bool
    private let clock: @Sendable () -> Date
    /// Held while the file is written too, so saves happen in the order of the changes.
    private let state: Mutex<State>

    /// A log kept in `path` (nil: in memory only), holding the last `capacity` interactions.
    /// `isPrivate` is asked on every event and read (the live `privacy.mode`); keep it cheap.
    /// An unreadable file starts an empty log.
    public init(
        path: String?, capacity: Int = 20, isPrivate: @escaping @Sendable () -> Bool = { false },
        clock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.path = path
        self.capacity = max(capacity, 1)
        self.isPrivate = isPrivate
        self.clock = clock
        var loaded: [Interaction] = []
        if let path, let data = FileManager.default.contents(atPath: path) {
            loaded = (try? Self.decoder.decode([Interaction].self, from: data)) ?? []
        }
        state = Mutex(State(finished: Array(loaded.suffix(self.capacity)), current: nil))
    }

    /// The kept interactions, newest first; empty in privacy mode.
    public var interactions: [Interaction] {
        guard !forgetIfPrivate() else { return [] }
        return state.withLock { $0.finished.reversed() }
    }

    /// Whether privacy mode is on now.
    public var isPrivateNow: Bool { isPrivate() }

    /// Forgets every kept interaction and removes the file.
    public func clear() throws(ConfigError) {
        try state.withLock { (state: inout State) throws(ConfigError) in
            state.finished = []
            state.current = nil
            try removeFile()
        }
    }

    public func emit(_ event: PipelineEvent) {
        guard !forgetIfPrivate() else { return }
        state.withLock { state in
            switch event.kind {
            case .wake:
                state.current = Interaction(started: clock())
            case .transcript(let text):
                state.current?.heard = text
            case .answer(let query, let actionsJSON, let skill):
                if state.current?.heard.isEmpty == true { state.current?.heard = query }
                state.current?.skill = skill
                state.current?.actions += Self.actionTypes(actionsJSON).filter { $0 != "answer" }
            case .speakStart(let text):
                state.current?.answers.append(text)
            case .play(let type, let identifier, let identifierType):
                state.current?.actions.append("\(type) \(identifierType):\(identifier)")
            case .error(_, let code, let message):
                state.current?.problem = "\(code): \(message)"
            case .idle:
                guard let finished = state.current else { return }
                state.current = nil
                state.finished.append(finished)
                state.finished.removeFirst(max(state.finished.count - capacity, 0))
                // A log that cannot be saved still serves the page; the next save retries.
                try? save(state.finished)
            default:
                break
            }
        }
    }

    /// In privacy mode, drops what is kept (once: the file is gone after); true when private.
    private func forgetIfPrivate() -> Bool {
        guard isPrivate() else { return false }
        state.withLock { state in
            guard !state.finished.isEmpty || state.current != nil || hasFile else { return }
            state.finished = []
            state.current = nil
            try? removeFile()
        }
        return true
    }

    private var hasFile: Bool {
        path.map { FileManager.default.fileExists(atPath: $0) } ?? false
    }

    private func save(_ interactions: [Interaction]) throws(ConfigError) {
        guard let path else { return }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = Timestamp.encoding
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = (try? encoder.encode(interactions)) ?? Data("[]".utf8)
        try ConfigStore.writeAtomically(data, to: path)
    }

    private func removeFile() throws(ConfigError) {
        guard let path, FileManager.default.fileExists(atPath: path) else { return }
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            throw ConfigError(.unwritable, "cannot remove \(path): \(error.localizedDescription)")
        }
    }

    /// The `type` of each action object in a JSON array of SUSI actions.
    static func actionTypes(_ json: String) -> [String] {
        guard let actions = (try? JSONValue.parse(json))?.arrayValue else { return [] }
        return actions.compactMap { $0["type"]?.stringValue }
    }

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = Timestamp.decoding
        return decoder
    }()
}
