import SusiCore

/// The speaker around `susi run`'s voice pipeline: the configured voice, the actions (one
/// `ActionDispatcher`), music turned down while it listens and talks, timers and `/say`
/// requests, and the open-question pass.
final class SpeakerEnvironment: PipelineEnvironment {
    private let live: LiveConfig
    private let dispatcher: ActionDispatcher
    private let player: SpeakerPlayer
    private let planned: PlannedAnswers
    private let announcements: Announcements
    private let openQuestions: OpenQuestionRecognizer?
    private let report: @Sendable (any SusiError) -> Void

    /// `openQuestions` hears commands no skill understood again (nil: `stt.open_questions`
    /// off); `report` hears failures to read the planned answers.
    init(
        live: LiveConfig, dispatcher: ActionDispatcher, player: SpeakerPlayer, planned: PlannedAnswers,
        announcements: Announcements, openQuestions: OpenQuestionRecognizer?, report: @escaping @Sendable (any SusiError) -> Void
    ) {
        self.live = live
        self.dispatcher = dispatcher
        self.player = player
        self.planned = planned
        self.announcements = announcements
        self.openQuestions = openQuestions
        self.report = report
    }

    var voice: VoiceSettings { Assembly.voice(live.current) }

    func perform(_ action: ChatAction) -> ActionOutcome { dispatcher.perform(action) }

    /// Music turns down to `player.duck_volume` while the speaker listens or talks; a player
    /// that has not started stays so.
    func attentionChanged(to attending: Bool) {
        guard let current = player.current else { return }
        if attending { current.duck(to: live.current.player.duckVolume) } else { current.unduck() }
    }

    func dueAnnouncements() -> [String] {
        do throws(ConfigError) {
            return try planned.takeDue() + announcements.take()
        } catch {
            report(error)
            return []
        }
    }

    func transcribeAgain(_ samples: [Int16]) throws -> String? {
        try openQuestions?.transcribe(samples)
    }
}
