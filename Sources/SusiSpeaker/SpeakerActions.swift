import Foundation
import SusiCore
import SusiNet
import SusiPlayer

/// Performs what an answer asks of the speaker besides speech: config changes and media.
///
/// The one mpv is made on first use and shared with the control routes of the setup server.
/// `@unchecked Sendable`: `player` is only touched while holding `lock`; `MPVPlayer` itself
/// may be called from any thread.
final class SpeakerActions: @unchecked Sendable {
    private let live: LiveConfig
    private let configPath: String
    private let logger: Logger
    private let lock = NSLock()
    private var player: MPVPlayer?
    private let report: @Sendable (any SusiError) -> Void
    /// Words to say at the next chance, e.g. that a stream failed; guarded by `lock`.
    private var announcements: [String] = []

    /// Timers and other planned answers, kept beside the config.
    let planned: PlannedAnswers
    /// The skill the voice-side skill features act on (the last SUSI skill that answered).
    private let lastSkill: @Sendable () -> String?

    /// The bundled skill that rates, reports and reads reviews of other skills.
    static let feedbackSkill = "skill_feedback"

    /// `clock` is the time planned answers follow (the audio's time for a file read at full speed).
    /// `report` hears the player's own failures (a stream that fails to load, mpv dying).
    init(
        live: LiveConfig, configPath: String, logger: Logger, report: @escaping @Sendable (any SusiError) -> Void,
        lastSkill: @escaping @Sendable () -> String?, clock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.live = live
        self.lastSkill = lastSkill
        self.report = report
        self.configPath = configPath
        self.logger = logger
        planned = PlannedAnswers(path: (configPath as NSString).deletingLastPathComponent + "/timers.json", clock: clock)
    }

    /// Performs `action`: what to say about it, or the failure to report.
    func perform(_ action: ChatAction) -> ActionOutcome {
        do {
            switch action {
            case .settings(let setting):
                try live.set(setting.key, to: setting.value)
                logger.info("\(setting.key) = \(setting.value)")
            case .answer(let answer) where answer.isPlanned:
                if let delay = answer.planDelay {
                    try planned.add(answer.expression, inMilliseconds: delay)
                } else if let text = answer.planDate, let date = ISO8601DateFormatter().date(from: text) {
                    try planned.add(answer.expression, at: date)
                }
            case .unknown(let unknown) where unknown.type == "timer_list":
                return ActionOutcome(say: planned.describe())
            case .unknown(let unknown) where unknown.type == "timer_cancel":
                let cancelled = try planned.cancelNext()
                return ActionOutcome(say: cancelled == nil ? "There is no timer to cancel." : "Okay, I cancelled the timer.")
            case .unknown(let unknown) where unknown.type.hasPrefix("skill_"):
                return skillFeedback(unknown)
            case .websearch(let search):
                let client = WebSearchClient(config: live.current, http: CurlHTTPClient(stage: .brain, logger: logger.child("http")))
                return ActionOutcome(say: client.spokenAnswer(for: search))
            case .audioPlay, .videoPlay, .audioVolume, .stop, .pause, .resume, .restart, .next, .previous, .shuffle:
                try mediaPlayer().perform(action)
            default:
                break
            }
            return .done
        } catch let error as any SusiError {
            return .failed(error)
        } catch {
            return .failed(PipelineError(stage: .player, code: "player-failed", message: "\(error)"))
        }
    }

    /// "rate this skill four stars", "report this skill", "what do people say about this
    /// skill", "how is this skill rated": the apps' skill features, by voice.
    private func skillFeedback(_ action: UnknownAction) -> ActionOutcome {
        let config = live.current
        let service = SkillFeedbackService(
            client: SkillCMSClient(server: config.brain.server, http: CurlHTTPClient(stage: .brain, logger: logger.child("http"))),
            account: AccountStore(configStore: ConfigStore(path: configPath)))
        let skill = lastSkill().flatMap { SkillReference(answerSkill: $0) }
        let outcome: SkillFeedbackService.Outcome
        switch action.type {
        case "skill_rate":
            let stars = action.raw["stars"]?.intValue ?? 0
            guard (1...5).contains(stars) else { return ActionOutcome(say: "Please give one to five stars.") }
            outcome = service.rate(skill, stars: stars)
        case "skill_report": outcome = service.report(skill)
        case "skill_reviews": outcome = service.reviews(skill)
        case "skill_ratings": outcome = service.ratings(skill)
        default: return .done
        }
        return ActionOutcome(say: outcome.text, failure: outcome.error)
    }

    /// The speaker's media player, made on first use.
    func mediaPlayer() -> MPVPlayer {
        lock.withLock {
            if let player { return player }
            let created = MPVPlayer(
                config: live.current.player, stateFile: PlayerStateFile(nextToConfig: configPath), logger: logger.child("player"))
            created.setEventHandler { [weak self] event in
                guard case .failed(let error) = event, let self else { return }
                // Said once per failure; the next request starts mpv again if it died.
                self.report(error)
                let words = error.code == "player-died" ? "Sorry, the music player stopped." : "Sorry, I could not play that."
                self.lock.withLock { self.announcements.append(words) }
            }
            player = created
            return created
        }
    }

    /// Queues `text` to be said at the pipeline's next chance (the control API's `/say`).
    func announce(_ text: String) {
        lock.withLock { announcements.append(text) }
    }

    /// What the speaker should say about things that happened meanwhile (player failures,
    /// `/say` requests).
    func takeAnnouncements() -> [String] {
        lock.withLock {
            defer { announcements = [] }
            return announcements
        }
    }

    /// Turns music down to `player.duck_volume` while the speaker listens or talks, and back.
    /// Never starts the player.
    func duck(_ attention: Bool) {
        guard let player = lock.withLock({ player }) else { return }
        if attention { player.duck(to: live.current.player.duckVolume) } else { player.unduck() }
    }

    /// The music volume: the player's when it runs, else the configured one.
    var volume: Int { lock.withLock { player }?.volume ?? live.current.player.volume }

    /// Stops the player process, if one was started.
    func shutdown() {
        lock.withLock { player }?.shutdown()
    }
}
