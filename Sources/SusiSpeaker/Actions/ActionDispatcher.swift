import Foundation
import SusiCore
import SusiModel
import SusiNet
import SusiPipeline
import SusiPlayer

/// Performs what an answer asks of the speaker besides speech: config changes, timers,
/// alarms, reminders and lists (`PlannerActions`), web search, the skill features and media. The one place actions are carried out; the pipeline's
/// `perform` and the control routes both come here.
///
/// Blocking: media commands wait for the player, web search and skill features for the
/// network (bounded by the HTTP client's timeouts). Safe to call from any thread.
public final class ActionDispatcher: Sendable {
    /// The bundled skill that rates, reports and reads reviews of other skills.
    public static let feedbackSkill = "skill_feedback"

    private let live: LiveConfig
    private let planned: PlannedAnswers
    private let player: SpeakerPlayer
    private let http: any HTTPClient
    private let account: AccountStore
    private let logger: Logger
    /// The skill the voice-side skill features act on (the last SUSI skill that answered).
    private let lastSkill: @Sendable () -> String?
    /// Reads the clock times of `timer_set` (the speaker's time zone).
    private let calendar: Calendar
    /// The owner's music, for the library's `audio_play` types; nil: none.
    private let library: MusicLibrary?
    /// Alarms, reminders and named lists.
    private let planner: PlannerActions
    /// Carries out the home skill's `home_assistant` actions; nil: "not set up" is said.
    private let home: HomeAssistantLink?

    /// A dispatcher changing `live`'s config, keeping timers in `planned`, playing on
    /// `player`; `http` serves web search and the skill CMS with `account`'s login.
    /// `timer_set`'s clock times (and alarms') are read in `calendar`. Alarms and reminders
    /// are kept in `planned` too, lists in `lists` (without it, list actions answer that there are
    /// no lists here). "Play my music" plays from `library`; `home` controls Home Assistant.
    public init(
        live: LiveConfig, planned: PlannedAnswers, player: SpeakerPlayer, http: any HTTPClient, account: AccountStore,
        logger: Logger, lastSkill: @escaping @Sendable () -> String? = { nil }, calendar: Calendar = .current,
        lists: NamedLists? = nil, library: MusicLibrary? = nil, home: HomeAssistantLink? = nil
    ) {
        self.live = live
        self.planned = planned
        self.player = player
        self.http = http
        self.account = account
        self.logger = logger
        self.lastSkill = lastSkill
        self.calendar = calendar
        self.library = library
        planner = PlannerActions(
            planned: planned, lists: lists, calendar: calendar,
            snoozeMinutes: { live.current.alarms.snoozeMinutes }, logger: logger)
        self.home = home
    }

    /// Performs `action` of an answer from `origin`: what to say about it, or the failure to
    /// report. Actions that are not the speaker's (plain answers, tables) do nothing.
    ///
    /// A settings action changes only a key `SettingsAction.allowedKeys(from: origin)` holds;
    /// any other is refused with `config-setting-refused` (the pipeline logs it once) and an
    /// apology to say, and nothing is saved.
    ///
    /// `next`/`previous` past either end of the playlist, and controls with nothing playing,
    /// quietly do nothing; only `audio_play`/`video_play` start the player (sound only), and
    /// only for what `MediaSourcePolicy` allows (`player.media_dirs`).
    public func perform(_ action: ChatAction, from origin: AnswerOrigin) -> ActionOutcome {
        do {
            switch action {
            case .settings(let setting) where !setting.isAllowed(from: origin):
                return ActionOutcome(
                    say: "Sorry, I am not allowed to change that.",
                    failure: ConfigError(
                        .settingRefused,
                        "an answer from the \(origin == .server ? "server" : "built-in skills") may not change "
                            + "\(String(setting.key.prefix(80)).debugDescription); allowed: "
                            + SettingsAction.allowedKeys(from: origin).sorted().joined(separator: ", ")))
            case .settings(let setting):
                try live.set(setting.key, to: setting.value)
                logger.info("\(setting.key) = \(setting.value)")
            case .answer(let answer) where answer.isPlanned:
                if let delay = answer.planDelay {
                    try planned.add(answer.expression, inMilliseconds: delay)
                } else if let text = answer.planDate, let date = Timestamp.date(iso8601: text) {
                    try planned.add(answer.expression, at: date)
                }
            case .timerList:
                return ActionOutcome(say: planned.describe())
            case .timerCancel:
                let cancelled = try planned.cancelNext()
                return ActionOutcome(say: cancelled == nil ? "There is no timer to cancel." : "Okay, I cancelled the timer.")
            case .planner(let action):
                return try planner.perform(action)
            case .stop where planned.ringing != nil:
                // "susi stop" while an alarm rings is for the alarm; the music plays on.
                return planner.stopRinging() ?? .done
            case .homeAssistant(let action):
                guard let home else {
                    return ActionOutcome(
                        say: HomeAssistantErrorKind.notConfigured.spoken,
                        failure: HomeAssistantError(.notConfigured, "this speaker has no link to Home Assistant"))
                }
                return home.perform(action, from: origin)
            case .skillFeedback(let action):
                return skillFeedback(action)
            case .timerSet(let timer):
                return try setTimer(timer)
            case .websearch(let search):
                return ActionOutcome(say: WebSearchClient(config: live.current, http: http).spokenAnswer(for: search))
            case .audioPlay(let media), .videoPlay(let media): return try play(media)
            case .audioVolume(let volume): try player.player().setVolume(volume.volume)
            case .stop: try player.player().stop()
            case .pause: try player.player().pause()
            case .resume: try player.player().resume()
            case .restart: try player.player().restart()
            case .next: try player.player().next()
            case .previous: try player.player().previous()
            case .shuffle: try player.player().shuffle()
            case .answer, .table, .piechart, .rss, .anchor, .map, .imageShow, .unknown:
                // Spoken or shown, not performed; an action of an unknown type is ignored.
                break
            }
            return .done
        } catch let error as any SusiError {
            return .failed(error)
        } catch {
            return .failed(PipelineError(stage: .player, code: "player-failed", message: "\(error)"))
        }
    }

    /// SUSI's `timer_set`: a timer ringing at the next such clock time (today or tomorrow),
    /// kept with the others in `planned`; confirmed as the built-in timer skill confirms its
    /// own. A time no clock shows is reported as `brain-bad-timer` with an apology.
    private func setTimer(_ timer: TimerSetAction) throws(ConfigError) -> ActionOutcome {
        guard let time = timer.clockTime, let spoken = timer.spokenTime,
            let entry = try planned.add("Time is up! Your \(spoken) timer is done.", atNext: time, in: calendar)
        else {
            return ActionOutcome(
                say: "Sorry, I could not set that timer.",
                failure: PipelineError(
                    stage: .brain, code: "brain-bad-timer",
                    message: "timer_set needs an hour 0-23 and a minute and second 0-59, not "
                        + [("hour", timer.hour), ("minute", timer.minute), ("second", timer.second)].map {
                            "\($0.0) \($0.1.map(String.init) ?? "none")"
                        }.joined(separator: ", ")))
        }
        let day = calendar.isDate(entry.due, inSameDayAs: entry.created) ? "" : " tomorrow"
        logger.info("timer set for \(entry.due)")
        return ActionOutcome(say: "Okay, a timer for \(spoken)\(day). I'll tell you when the time is up.")
    }

    /// Plays `media`, then queues its `queue`, each if `MediaSourcePolicy` allows where it
    /// leads; a refused source is reported as `player-source-refused` with an apology, and the
    /// player is not asked for it or anything after it.
    private func play(_ media: MediaPlayAction) throws(PlayerError) -> ActionOutcome {
        if media.isLibrary { return try playFromLibrary(media) }
        let policy = MediaSourcePolicy(config: live.current)
        for (index, identifier) in ([media.identifier] + media.queue).enumerated() {
            let location = try MediaLocator.location(identifier: identifier, type: media.identifierType)
            var entry = (identifier: identifier, type: media.identifierType)
            switch policy.check(location) {
            case .allowed(let playable) where playable == location:
                break
            case .allowed(let file):
                // The resolved path, so a symlink changed after the check leads nowhere else.
                entry = (file, MediaPlayAction.url)
            case .refused(let reason):
                logger.warning("refused to play \(location): \(reason)")
                return ActionOutcome(
                    say: "Sorry, I can't play that.",
                    failure: PlayerError(.sourceRefused, "refused to play \(location): \(reason)"))
            }
            if index == 0 {
                try player.player().play(identifier: entry.identifier, type: entry.type)
            } else {
                try player.player().enqueue(identifier: entry.identifier, type: entry.type)
            }
        }
        return .done
    }

    /// The owner's music `media` asks for, refreshed first (a USB stick plugged in since is
    /// found): the whole library in album order or shuffled, an artist's or an album's tracks.
    /// An artist or album the library does not hold is searched for instead; a library with
    /// nothing in it gets an apology saying where music is looked for.
    private func playFromLibrary(_ media: MediaPlayAction) throws(PlayerError) -> ActionOutcome {
        let config = live.current
        let selection: MusicLibrary.Selection
        switch media.identifierType {
        case MediaPlayAction.libraryArtist: selection = .artist(media.identifier)
        case MediaPlayAction.libraryAlbum: selection = .album(media.identifier)
        default: selection = .everything
        }
        let roots = library?.roots(folders: config.player.mediaDirectories, removable: config.player.removableMedia) ?? []
        let count = library?.refresh(roots: roots) ?? 0
        let policy = MediaSourcePolicy(mediaDirectories: roots)
        let tracks = (library?.tracks(for: selection) ?? []).compactMap { track -> String? in
            if case .allowed(let file) = policy.check(track.path) { return file }
            return nil
        }
        guard let first = tracks.first else {
            if selection != .everything {
                logger.info("nothing in the music library for \(selection); searching")
                return try play(MediaPlayAction(identifier: media.identifier, identifierType: MediaPlayAction.search))
            }
            return ActionOutcome(
                say: "I found no music of yours to play. Name your music folder in the settings, or plug in a USB stick.",
                failure: PlayerError(
                    .libraryEmpty,
                    count == 0
                        ? "no audio files in player.media_dirs or on removable media (\(roots.joined(separator: ", ")))"
                        : "no playable file among the \(count) tracks of the music library"))
        }
        let chosen = tracks.prefix(Self.maximumQueue)
        logger.info("playing \(chosen.count) of \(count) library tracks for \(selection)")
        let mpv = try player.player()
        try mpv.play(identifier: first, type: MediaPlayAction.url)
        for file in chosen.dropFirst() { try mpv.enqueue(identifier: file, type: MediaPlayAction.url) }
        if media.identifierType == MediaPlayAction.libraryShuffle { try mpv.shuffle() }
        return .done
    }

    /// The most library tracks queued at once.
    static let maximumQueue = 1_000

    /// "rate this skill four stars", "report this skill", "what do people say about this
    /// skill", "how is this skill rated": the apps' skill features, by voice.
    private func skillFeedback(_ action: SkillFeedbackAction) -> ActionOutcome {
        let service = SkillFeedbackService(
            client: SkillCMSClient(server: live.current.brain.server, http: http), account: account)
        let skill = lastSkill().flatMap { SkillReference(answerSkill: $0) }
        let outcome: SkillFeedbackService.Outcome
        switch action.kind {
        case .rate:
            guard let stars = action.stars, (1...5).contains(stars) else {
                return ActionOutcome(say: "Please give one to five stars.")
            }
            outcome = service.rate(skill, stars: stars)
        case .report: outcome = service.report(skill)
        case .reviews: outcome = service.reviews(skill)
        case .ratings: outcome = service.ratings(skill)
        }
        return ActionOutcome(say: outcome.text, failure: outcome.error)
    }
}

extension MediaPlayer {
    /// Raises (positive `delta`) or lowers the listening volume, e.g. by `player.volume_step`
    /// for "volume up" / "volume down"; the result is clamped to 0-100.
    public func changeVolume(by delta: Int) throws(PlayerError) {
        try setVolume(min(max(volume + delta, 0), 100))
    }
}
