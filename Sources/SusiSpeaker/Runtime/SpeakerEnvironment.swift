import SusiCore
import SusiModel
import SusiPipeline
import SusiSpeech

/// The speaker around `susi run`'s voice pipeline, all three parts of its environment: the
/// voice (the configured voice, the open-question pass, Whisper, and the config observer's
/// changes applied in the pipeline's reconfiguring step: endpointing, a new wake word
/// detector), the actions (one `ActionDispatcher`), and the attention (music turned down while
/// it listens, talks and rings; timers, alarms and `/say` requests).
final class SpeakerEnvironment: PipelineVoice, PipelineActions, PipelineAttention {
    private let live: LiveConfig
    private let observer: SpeakerConfigObserver
    private let dispatcher: ActionDispatcher
    private let player: SpeakerPlayer
    private let planned: PlannedAnswers
    private let announcements: Announcements
    private let recognizer: SphinxRecognizer?
    private let homeNames: () -> HomeDirectory?
    private let whisper: WhisperSlot
    private let makeWakeDetector: (Config) throws(SpeechError) -> any WakeWordDetector
    private let report: @Sendable (any SusiError) -> Void
    /// This interaction asked the player for media whose outcome it has not yet had.
    private var awaitingPlay = false

    /// `observer` is updated in `reconfigure`;
    /// `recognizer` (the pipeline's own) hears commands no skill understood again: with its
    /// open-question search (none in `local` mode or with `stt.open_questions` off at start)
    /// while `stt.open_questions` is on, and with the commands of the home `homeNames` gives
    /// alone; `makeWakeDetector` makes the detector anew after a `hotword.*` change; `report`
    /// hears failures to read the planned answers.
    init(
        live: LiveConfig, observer: SpeakerConfigObserver, dispatcher: ActionDispatcher, player: SpeakerPlayer,
        planned: PlannedAnswers, announcements: Announcements, recognizer: SphinxRecognizer?,
        homeNames: @escaping () -> HomeDirectory? = { nil }, whisper: WhisperSlot,
        makeWakeDetector: @escaping (Config) throws(SpeechError) -> any WakeWordDetector,
        report: @escaping @Sendable (any SusiError) -> Void
    ) {
        self.live = live
        self.observer = observer
        self.dispatcher = dispatcher
        self.player = player
        self.planned = planned
        self.announcements = announcements
        self.recognizer = recognizer
        self.homeNames = homeNames
        self.whisper = whisper
        self.makeWakeDetector = makeWakeDetector
        self.report = report
    }

    var voice: VoiceSettings { Assembly.voice(live.current) }

    func voice(forAnswerIn language: String) -> VoiceSettings { AnswerVoice.voice(voice, forAnswerIn: language) }

    /// Media asked for is watched until it loads or fails (`outcomeWords`).
    func perform(_ action: ChatAction, from origin: AnswerOrigin) -> ActionOutcome {
        let plays = action.startsPlayback
        if plays { player.watch.expect() }
        let outcome = dispatcher.perform(action, from: origin)
        if plays {
            // Refused at once, it has been said; nothing will come later.
            if outcome.failure == nil { awaitingPlay = true } else { player.watch.settle() }
        }
        return outcome
    }

    /// Once the media this interaction asked for has loaded or failed: what was queued to say
    /// meanwhile (the player's failure queues its apology before it settles the watch).
    func outcomeWords() -> [String]? {
        guard awaitingPlay else { return [] }
        guard !player.watch.isPending else { return nil }
        awaitingPlay = false
        return announcements.take()
    }

    /// Music turns down to
    /// `player.duck_volume` while the speaker listens, talks or rings an alarm; a player that
    /// has not started stays so. An alarm's ringing is over with the attention it held (rung
    /// out, or the command that cut it answered).
    func attentionChanged(to attending: Bool) {
        if !attending {
            awaitingPlay = false
            planned.stopRinging()
        }
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

    /// The alarm due now, which becomes the one ringing (`PlannedAnswers.ringing`) for "stop"
    /// and "snooze".
    func dueAlarm() -> String? {
        do throws(ConfigError) {
            return try planned.takeDueAlarm()?.text
        } catch {
            report(error)
            return nil
        }
    }

    /// The recogniser's open-question decoder heard the command beside the skills' search:
    /// its final pass gives the reading.
    func transcribeAgain() throws -> String? {
        guard live.current.stt.openQuestions, let recognizer, recognizer.hasSecondSearch else { return nil }
        return try recognizer.decodeAgain().text
    }

    /// The recogniser's search of the Home Assistant's commands alone hears the command again
    /// when `heard` names a thing of the home, and is taken when both readings share a word
    /// of a name (`HomeDirectory.mayBe`); a failure is reported and the other hearings follow.
    func homeCommand(insteadOf heard: String) -> String? {
        guard let recognizer, let names = homeNames(), !names.nameWords.isDisjoint(with: HomeDirectory.words(heard))
        else { return nil }
        do throws(SpeechError) {
            guard let command = try recognizer.decodeAgain(withSideSearch: Hearing.homeCommandsSearch)?.text,
                names.mayBe(command, heard: heard)
            else { return nil }
            return command
        } catch {
            report(error)
            return nil
        }
    }

    /// Whisper, for `stt.engine whisper` (when it is installed): its reading replaces a sure
    /// one with `stt.whisper_when always`, and always when it hears another language than
    /// English (PocketSphinx hears only English); it checks the name with `hotword.name_check`.
    var wholeHearing: WholeHearing? {
        let config = observer.config
        guard let transcriber = whisper.transcriber(for: config) else { return nil }
        return WholeHearing(
            transcriber: transcriber,
            replacesSure: config.stt.whisperWhen == "always" || WhisperSlot.language(of: config) != "en",
            checksName: config.hotword.nameCheck)
    }

    /// Applies the config changes noticed since the last call (`SpeakerConfigObserver`):
    /// the `stt.*` endpointing and `hotword.enabled` in force, and a detector for the
    /// `hotword.*` settings once after they changed.
    func reconfigure() -> Reconfiguration {
        let config = observer.update()
        var change = Reconfiguration(endpointing: EndpointerSettings(config.stt), listensForWakeWord: observer.listensForWakeWord)
        if let wakeConfig = observer.takeWakeChange() {
            do throws(SpeechError) {
                change.wakeDetector = try makeWakeDetector(wakeConfig)
            } catch {
                change.wakeFailure = error
            }
        }
        return change
    }
}
