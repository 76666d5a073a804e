import SusiModel
import Synchronization

/// The brain the speaker answers with now: a slot the config observer fills anew when
/// `brain.*` or `location.*` change, so the pipeline keeps one brain for its whole run.
///
/// A call asks the brain in the slot when it starts; a brain replaced during a call finishes
/// that call. Safe from any thread.
public final class CurrentChatBrain: ChatBrain, Sendable {
    /// A brain that may be called from any thread.
    public typealias Brain = any ChatBrain & Sendable

    private let slot: Mutex<Brain>

    /// A slot holding `brain`.
    public init(_ brain: Brain) {
        slot = Mutex(brain)
    }

    /// The brain in the slot.
    public var brain: Brain {
        slot.withLock { $0 }
    }

    /// Puts `brain` in the slot; the next call asks it.
    public func replace(with brain: Brain) {
        slot.withLock { $0 = brain }
    }

    /// The reply of the brain in the slot.
    public func answer(_ query: String) throws -> ChatResponse {
        try brain.answer(query)
    }

    /// The brain in the slot's judgement.
    public func understanding(of text: String) -> CommandUnderstanding? {
        brain.understanding(of: text)
    }
}
