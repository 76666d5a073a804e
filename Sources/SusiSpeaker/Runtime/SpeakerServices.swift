import Foundation
import SusiBrain
import SusiCore
import SusiModel
import SusiNet
import SusiPlayer
import SusiServer

/// The parts of a speaker that `susi run` and `susi setup serve` share, built in one place:
/// the live config, the player, the timers and lists, the account, the action dispatcher and
/// the apps' control over them. `SpeakerRuntime` adds the voice pipeline around them;
/// `StandaloneSetup` serves them alone.
final class SpeakerServices {
    let store: ConfigStore
    let live: LiveConfig
    let player: SpeakerPlayer
    let planned: PlannedAnswers
    let lists: NamedLists
    /// What is to be said unasked: `/say` requests while the pipeline runs, and the player's
    /// failures.
    let announcements = Announcements()
    let dispatcher: ActionDispatcher
    /// The link to Home Assistant for the home skill; nil where no skill runs.
    let home: HomeAssistantLink?
    private let logger: Logger

    /// The parts over the config in `store`.
    ///
    /// - Parameters:
    ///   - report: hears an invalid config edit (the last good config is kept) and the
    ///     player's failures, each of which also queues an apology in `announcements`.
    ///   - clock: the timers' clock (a file read faster than real time keeps its own).
    ///   - homeCache: where the Home Assistant link keeps the names it fetched; nil: no link
    ///     (no skill runs).
    ///   - lastSkill: the skill the voice-side skill features act on.
    init(
        store: ConfigStore, logger: Logger, report: @escaping @Sendable (any SusiError) -> Void,
        clock: @escaping @Sendable () -> Date = Date.init, homeCache: String? = nil,
        lastSkill: @escaping @Sendable () -> String? = { nil }
    ) throws(ConfigError) {
        self.store = store
        self.logger = logger
        let live = try LiveConfig(store: store) { error in report(error) }
        self.live = live
        planned = PlannedAnswers(path: store.state.timers, clock: clock)
        lists = NamedLists(path: store.state.lists)
        let announcements = self.announcements
        player = SpeakerPlayer.mpv(config: { live.current }, configPath: store.path, logger: logger.child("player")) {
            error in
            // Said once per failure; the next request starts mpv again if it died.
            report(error)
            announcements.add(error.code == "player-died" ? "Sorry, the music player stopped." : "Sorry, I could not play that.")
        }
        let http = CurlHTTPClient(stage: .brain, logger: logger.child("http"))
        home = homeCache.map { cache in
            HomeAssistantLink(
                config: { live.current }, store: store, cacheDirectory: cache, http: http, logger: logger.child("home"))
        }
        dispatcher = ActionDispatcher(
            live: live, planned: planned, player: player, http: http,
            account: AccountStore(configStore: store), logger: logger.child("actions"), lastSkill: lastSkill, lists: lists,
            library: MusicLibrary(indexPath: store.state.musicLibrary), home: home)
    }

    /// The apps' control over these parts. `speaker` speaks `/say` texts (the pipeline, which
    /// owns the sound device); without it the control opens the device itself. `pipeline`'s
    /// phase is what `/status` reports.
    func control(speaker: (@Sendable (String) -> Void)? = nil, pipeline: PipelineStatus? = nil)
        -> StandaloneSpeakerControl
    {
        let live = self.live
        return StandaloneSpeakerControl(
            configPath: store.path, config: { live.current }, dispatcher: dispatcher, player: player,
            logger: logger.child("control"), speaker: speaker, pipeline: pipeline)
    }
}
