import SusiModel

/// The built-in `Brain` in the pipeline's `ChatBrain` role (`brain.mode = local`, `susi ask
/// --local`, and the local half of `HybridBrain`).
///
/// The context (voice, volume, last answer, ...) is asked for on every query, so the caller
/// keeps it current. Immutable; safe from any thread.
public final class LocalChatBrain: ChatBrain, Sendable {
    /// The skills answering.
    public let brain: Brain
    /// What skills were told in this conversation (one speaker session); used when the
    /// context brings no memory of its own.
    public let memory = SkillMemory()
    private let context: @Sendable () -> BrainContext
    private let catchAllSkills: Set<String>

    /// Wraps `brain`; `context` is called once per query. Answers of `catchAllSkills` do not
    /// count as a complete command.
    public init(
        brain: Brain, catchAllSkills: Set<String> = HybridRoutingPolicy.defaultCatchAllSkills,
        context: @escaping @Sendable () -> BrainContext = { BrainContext() }
    ) {
        self.brain = brain
        self.catchAllSkills = catchAllSkills
        self.context = context
    }

    /// The built-in brain's reply (may block on console fetches; see `Brain`).
    public func answer(_ query: String) throws(BrainError) -> ChatResponse {
        var context = context()
        if context.memory == nil { context.memory = memory }
        return try brain.answer(query, context: context)
    }

    /// How a skill other than the catch-all matches `text` (`Brain.match`: no fetch, no
    /// rendering): then the command is complete and the endpointer may stop after a short
    /// silence.
    public func understanding(of text: String) -> CommandUnderstanding? {
        guard let match = brain.match(text, context: context()), !catchAllSkills.contains(match.skill) else { return nil }
        return CommandUnderstanding(uncheckedWords: match.uncheckedWords)
    }
}
