import SusiCore
import SusiModel

/// The speaker around the voice pipeline, in three parts: its voice (how it speaks and hears),
/// the actions of answers that are not speech, and what asks for its attention besides the
/// wake word (planned answers, alarms) and gives way while it attends (the music).
///
/// Called from the pipeline's thread only, one call at a time. The parts may be one object
/// (`init(_:)`).
public struct PipelineEnvironment {
    public var voice: any PipelineVoice
    public var actions: any PipelineActions
    public var attention: any PipelineAttention

    public init(voice: any PipelineVoice, actions: any PipelineActions, attention: any PipelineAttention) {
        self.voice = voice
        self.actions = actions
        self.attention = attention
    }

    /// One object that is all three parts.
    public init(_ speaker: any PipelineVoice & PipelineActions & PipelineAttention) {
        self.init(voice: speaker, actions: speaker, attention: speaker)
    }
}

/// How the speaker speaks and hears: its voice, the second hearings of a command, and the
/// settings changed since the pipeline last reconfigured. Every requirement but `voice` has a
/// default, for speakers without a second recogniser or settings that change.
public protocol PipelineVoice: AnyObject {
    /// The voice to speak with now; asked before every sentence, so a settings action (or a
    /// config edit) is heard in the next one.
    var voice: VoiceSettings { get }

    /// The voice for an answer SUSI tagged with `language`: `voice` when it speaks that
    /// language, else a voice of that language with the same variant and prosody.
    func voice(forAnswerIn language: String) -> VoiceSettings

    /// The command's words as a second recogniser heard them, for commands no skill is sure
    /// of (open questions). The second recogniser decodes the command beside the first one as
    /// its audio comes (it is the pipeline's recogniser's own), so only its final pass is
    /// left and no copy of the audio is handed over. Nil when there is no second recogniser.
    func transcribeAgain() throws -> String?

    /// The command just ended, which no skill is sure of as `heard`, heard again as one of the
    /// Home Assistant's commands: nil where the speaker knows no home, or where `heard` gives
    /// no reason to think it was one (then the other hearings follow).
    func homeCommand(insteadOf heard: String) -> String?

    /// How the command just ended is heard whole (Whisper), besides the streaming recogniser;
    /// asked once per command after it ended. Nil keeps the streaming recogniser's reading.
    var wholeHearing: WholeHearing? { get }

    /// Applies the settings changed since the last call and says what the pipeline is to
    /// change: the pipeline's `reconfiguring` step, taken as it starts, while idle (once per
    /// `VoicePipeline.idleAskingMs` of input, and after each interaction) and as each command
    /// begins, never in the middle of an interaction.
    func reconfigure() -> Reconfiguration
}

extension PipelineVoice {
    /// `voice`, switched by its name's language (`VoiceSettings.speaking`).
    public func voice(forAnswerIn language: String) -> VoiceSettings { voice.speaking(language) }

    /// No second recogniser.
    public func transcribeAgain() throws -> String? { nil }

    /// No home.
    public func homeCommand(insteadOf heard: String) -> String? { nil }

    /// No transcriber of whole commands.
    public var wholeHearing: WholeHearing? { nil }

    /// Nothing ever changes.
    public func reconfigure() -> Reconfiguration { Reconfiguration() }
}

/// What the pipeline changes when the speaker's settings have changed (`PipelineVoice.reconfigure`).
public struct Reconfiguration {
    /// The endpointing for commands from now on (`stt.*`); nil keeps the current one.
    public var endpointing: EndpointerSettings?
    /// A wake word detector to listen with from now on (`hotword.*`); nil keeps the current one.
    public var wakeDetector: (any WakeWordDetector)?
    /// Why a new detector could not be made (reported; the current one is kept).
    public var wakeFailure: (any SusiError)?
    /// Whether to listen for the wake word (`hotword.enabled`); nil keeps listening as it is.
    /// While false nothing wakes the speaker by voice, and the detector hears nothing;
    /// planned answers are still said.
    public var listensForWakeWord: Bool?

    public init(
        endpointing: EndpointerSettings? = nil, wakeDetector: (any WakeWordDetector)? = nil,
        wakeFailure: (any SusiError)? = nil, listensForWakeWord: Bool? = nil
    ) {
        self.endpointing = endpointing
        self.wakeDetector = wakeDetector
        self.wakeFailure = wakeFailure
        self.listensForWakeWord = listensForWakeWord
    }
}

/// The actions of an answer that are not speech.
public protocol PipelineActions: AnyObject {
    /// Performs an action that is not speech (settings, media, timers, web search) of an
    /// answer from `origin`: what to say about it, or the failure to report. A settings
    /// action outside `SettingsAction.allowedKeys(from: origin)` must change nothing.
    func perform(_ action: ChatAction, from origin: AnswerOrigin) -> ActionOutcome

    /// What the actions just performed still have to say before their interaction ends (a
    /// stream that would not load: "Sorry, I could not play that."): nil while their outcome
    /// is still to come, then the words (usually none). Asked after the last action, and
    /// again as input arrives, for at most `VoicePipeline.outcomeWaitMs`; an outcome later
    /// than that is for `PipelineAttention.dueAnnouncements`.
    func outcomeWords() -> [String]?
}

extension PipelineActions {
    /// Actions have nothing more to say.
    public func outcomeWords() -> [String]? { [] }
}

/// What asks for the speaker's attention besides the wake word, and what gives way while it
/// attends. Every requirement has a default that does nothing, for speakers without music,
/// timers or alarms.
public protocol PipelineAttention: AnyObject {
    /// Told true when an interaction (or a planned answer) begins and false once it is over,
    /// errors included, so music can be turned down while the speaker listens and talks.
    func attentionChanged(to attending: Bool)

    /// Planned answers (timers) and announcements due now; asked once per
    /// `VoicePipeline.idleAskingMs` of input while idle, and after each interaction.
    func dueAnnouncements() -> [String]

    /// An alarm due now: the words to say between its rings. Asked just before
    /// `dueAnnouncements`; the pipeline rings it with the music down (`attentionChanged`) until
    /// the wake word cuts it (the command after it is heard, "stop" or "snooze") or
    /// `VoicePipeline.ringCycles` have rung. Nil when none is due.
    func dueAlarm() -> String?
}

extension PipelineAttention {
    /// No music to turn down.
    public func attentionChanged(to attending: Bool) {}

    /// Nothing is ever planned.
    public func dueAnnouncements() -> [String] { [] }

    /// No alarms.
    public func dueAlarm() -> String? { nil }
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
