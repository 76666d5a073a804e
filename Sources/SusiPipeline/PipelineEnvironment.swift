import SusiCore
import SusiModel

/// What the voice pipeline asks of the speaker around it: the voice to speak with, the actions
/// that are not speech, the music's volume while it listens, planned answers, and a second
/// hearing of commands no skill understood.
///
/// Called from the pipeline's thread only, one call at a time. Every requirement but `voice`
/// and `perform` has a default that does nothing, for speakers without music, timers, alarms
/// or a second recogniser.
public protocol PipelineEnvironment: AnyObject {
    /// The voice to speak with now; asked before every sentence, so a settings action (or a
    /// config edit) is heard in the next one.
    var voice: VoiceSettings { get }

    /// The voice for an answer SUSI tagged with `language`: `voice` when it speaks that
    /// language, else a voice of that language with the same variant and prosody.
    func voice(forAnswerIn language: String) -> VoiceSettings

    /// Performs an action that is not speech (settings, media, timers, web search) of an
    /// answer from `origin`: what to say about it, or the failure to report. A settings
    /// action outside `SettingsAction.allowedKeys(from: origin)` must change nothing.
    func perform(_ action: ChatAction, from origin: AnswerOrigin) -> ActionOutcome

    /// Told true when an interaction (or a planned answer) begins and false once it is over,
    /// errors included, so music can be turned down while the speaker listens and talks.
    func attentionChanged(to attending: Bool)

    /// What the actions just performed still have to say before their interaction ends (a
    /// stream that would not load: "Sorry, I could not play that."): nil while their outcome
    /// is still to come, then the words (usually none). Asked after the last action, and
    /// again as input arrives, for at most `VoicePipeline.outcomeWaitMs`; an outcome later
    /// than that is for `dueAnnouncements`.
    func outcomeWords() -> [String]?

    /// Planned answers (timers) and announcements due now; asked once per
    /// `VoicePipeline.idleAskingMs` of input while idle, and after each interaction.
    func dueAnnouncements() -> [String]

    /// An alarm due now: the words to say between its rings. Asked just before
    /// `dueAnnouncements`; the pipeline rings it with the music down (`attentionChanged`) until
    /// the wake word cuts it (the command after it is heard, "stop" or "snooze") or
    /// `VoicePipeline.ringCycles` have rung. Nil when none is due.
    func dueAlarm() -> String?

    /// The command's words as a second recogniser heard them, for commands no skill is sure
    /// of (open questions). The second recogniser decodes the command beside the first one as
    /// its audio comes (it is the pipeline's recogniser's own), so only its final pass is
    /// left and no copy of the audio is handed over. Nil when there is no second recogniser.
    func transcribeAgain() throws -> String?

    /// How the command just ended is heard whole (Whisper), besides the streaming recogniser;
    /// asked once per command after it ended. Nil keeps the streaming recogniser's reading.
    var wholeHearing: WholeHearing? { get }

    /// The endpointing for the next command, asked as each command begins (after
    /// `attentionChanged(to: true)`), so a change of the `stt.*` keys counts from the next
    /// interaction. Nil keeps the settings the pipeline was made with.
    var endpointing: EndpointerSettings? { get }

    /// A wake word detector to listen with from now on instead of the current one; asked
    /// before each chunk while idle, so a change of the `hotword.*` keys counts from the next
    /// wake word. Nil keeps the current one; a failure is reported and the current one kept.
    func replacementWakeDetector() throws -> (any WakeWordDetector)?

    /// Whether to listen for the wake word now (`hotword.enabled`); asked before each chunk
    /// while idle. While false nothing wakes the speaker by voice, and the detector hears
    /// nothing; planned answers are still said.
    var listensForWakeWord: Bool { get }
}

extension PipelineEnvironment {
    /// `voice`, switched by its name's language (`VoiceSettings.speaking`).
    public func voice(forAnswerIn language: String) -> VoiceSettings { voice.speaking(language) }

    /// No music to turn down.
    public func attentionChanged(to attending: Bool) {}

    /// Actions have nothing more to say.
    public func outcomeWords() -> [String]? { [] }

    /// Nothing is ever planned.
    public func dueAnnouncements() -> [String] { [] }

    /// No alarms.
    public func dueAlarm() -> String? { nil }

    /// No second recogniser.
    public func transcribeAgain() throws -> String? { nil }

    /// No transcriber of whole commands.
    public var wholeHearing: WholeHearing? { nil }

    /// The endpointing the pipeline was made with, always.
    public var endpointing: EndpointerSettings? { nil }

    /// The same wake word detector, always.
    public func replacementWakeDetector() throws -> (any WakeWordDetector)? { nil }

    /// Always listening.
    public var listensForWakeWord: Bool { true }
}

/// What performing a non-speech action led to: words to say instead of the action's own
/// rendering, and a failure to report.
public struct ActionOutcome: Sendable {
    public var say: String?
    public var failure: (any SusiError)?

    public init(say: String? = nil, failure: (any SusiError)? = nil) {
        self.say = say
        self.failure = failure
    }

    /// Done, nothing to add.
    public static let done = ActionOutcome()

    /// Failed with `error`.
    public static func failed(_ error: any SusiError) -> ActionOutcome { ActionOutcome(failure: error) }
}

/// A transcriber that hears a command whole after it ended (Whisper), and what its reading is
/// used for.
public struct WholeHearing {
    public var transcriber: any UtteranceTranscriber
    /// Whether its reading replaces a streaming reading that a skill is sure of too (else only
    /// an unsure one).
    public var replacesSure: Bool
    /// Whether it hears the wake word too, and a wake whose reading lacks the name near its
    /// start is dropped silently (it is heard for every command then, sure or not).
    public var checksName: Bool

    public init(transcriber: any UtteranceTranscriber, replacesSure: Bool, checksName: Bool) {
        self.transcriber = transcriber
        self.replacesSure = replacesSure
        self.checksName = checksName
    }
}
