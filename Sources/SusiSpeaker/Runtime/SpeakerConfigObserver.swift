import SusiCore
import SusiModel
import SusiPipeline
import SusiPlayer
import Synchronization

/// The one observer of the live config in `susi run`: it hears every change, says which keys
/// changed (and which of them need a restart), and rebuilds or updates the components a change
/// concerns between interactions.
///
/// Changes are collected as they are noticed, on any thread; `update()` applies them. The
/// pipeline's reconfiguring step calls it on the pipeline's thread (as the pipeline starts,
/// while idle once per `VoicePipeline.idleAskingMs`, as each interaction begins and after it
/// ends), so a change takes effect on the next interaction and never in the middle of one. What reads the config
/// afresh on every use (the voice before each sentence, the room and volume step in the
/// brain's context, `player.duck_volume`, web search, the setup server's routes) needs no
/// rebuilding; what is built from it is:
/// - the chat brain (`brain.*`, `location.*`): made anew by `makeBrain` into `brain`;
/// - the player (`player.command`, `player.args`): made anew once nothing is loaded in it;
///   `player.volume` sets the music volume;
/// - the wake word detector (`hotword.*`): the pipeline's environment makes it anew on the
///   pipeline's thread when `takeWakeChange()` says so, and hands the pipeline the endpointing
///   of `config.stt` (`Reconfiguration`).
public final class SpeakerConfigObserver: Sendable {
    private struct State {
        /// The config the components were last built or updated from.
        var applied: Config
        /// The newest change noticed and not yet applied.
        var pending: ConfigChange?
        /// The generation of the newest change noticed; older ones arriving late are dropped.
        var noticed = 0
        /// `hotword.*` changed since the wake word detector was last made.
        var wakeChanged = false
    }

    private let live: LiveConfig
    private let brain: CurrentChatBrain
    private let makeBrain: @Sendable (Config) -> any ChatBrain & Sendable
    private let player: SpeakerPlayer
    private let logger: Logger
    private let state: Mutex<State>

    /// Observes `live` from now on; the components are taken to be built from its current
    /// config. `makeBrain` builds the brain for a config (cheap: no I/O).
    public init(
        live: LiveConfig, brain: CurrentChatBrain, makeBrain: @escaping @Sendable (Config) -> any ChatBrain & Sendable,
        player: SpeakerPlayer, logger: Logger
    ) {
        self.live = live
        self.brain = brain
        self.makeBrain = makeBrain
        self.player = player
        self.logger = logger
        state = Mutex(State(applied: live.current))
        live.observe { [weak self] change in self?.notice(change) }
    }

    /// Applies the changes noticed since the last call (looking at the file first, if it is
    /// time); returns the config now in force. Call it between interactions, from one thread.
    @discardableResult
    public func update() -> Config {
        let current = live.current
        let taken = state.withLock { state -> (old: Config, new: Config)? in
            guard let pending = state.pending else { return nil }
            state.pending = nil
            defer { state.applied = pending.new }
            return (state.applied, pending.new)
        }
        guard let (old, new) = taken else { return current }
        apply(ConfigChange(old: old, new: new, generation: 0))
        return new
    }

    /// The config the components were last built or updated from (by `update()`).
    public var config: Config {
        state.withLock { $0.applied }
    }

    /// `hotword.enabled` of `config`, read without copying the config (asked on every chunk).
    public var listensForWakeWord: Bool {
        state.withLock { $0.applied.hotword.enabled }
    }

    /// The config to make the wake word detector anew with, once after each `update()` that
    /// applied a `hotword.*` change; nil otherwise. The detector is used from the pipeline's
    /// thread, so the pipeline's environment makes it, when the pipeline is idle.
    public func takeWakeChange() -> Config? {
        state.withLock { state in
            defer { state.wakeChanged = false }
            return state.wakeChanged ? state.applied : nil
        }
    }

    /// Keeps the newest change for `update()` and says what changed.
    private func notice(_ change: ConfigChange) {
        let newest = state.withLock { state -> Bool in
            guard change.generation > state.noticed else { return false }
            state.noticed = change.generation
            state.pending = change
            return true
        }
        guard newest else { return }
        for key in change.keys {
            let value = key.value(in: change.new)
            if key.needsRestart {
                logger.warning("\(key.name) changed to \(value); susi run uses it after a restart")
            } else {
                logger.info("\(key.name) changed to \(value); used from the next interaction")
            }
        }
    }

    /// Rebuilds or updates what `change` concerns.
    private func apply(_ change: ConfigChange) {
        if change.touches("hotword.") {
            state.withLock { $0.wakeChanged = true }
        }
        if change.touches("brain.", "location.") {
            brain.replace(with: makeBrain(change.new))
            logger.debug("brain made anew: \(change.new.brain.mode) at \(change.new.brain.server)")
        }
        if change.touches("player.command", "player.args") {
            player.reconfigure()
        }
        if change.touches("player.volume") {
            do throws(PlayerError) {
                try player.player().setVolume(change.new.player.volume)
            } catch {
                logger.warning("\(error.code): \(error.message)")
            }
        }
    }
}
