import Foundation
import SusiCore
import SusiModel
import SusiPipeline
import SusiPlayer
import Synchronization

/// The speaker's one media player, made on first use and shared by the voice pipeline and the
/// control routes so both drive one mpv.
///
/// Making the player starts no process (`MediaPlayer` starts one on `play` only). After
/// `shutdown()` no player is made again, so a request racing the end of the process fails
/// instead of starting mpv anew.
public final class SpeakerPlayer: Sendable {
    /// A player that may be called from any thread, as `MediaPlayer` promises.
    public typealias Player = any MediaPlayer & Sendable

    private struct State {
        var player: Player?
        var isShutDown = false
        /// The player was made under `player.*` settings that have changed since.
        var isStale = false
    }

    private let state = Mutex(State())
    private let make: @Sendable () -> Player
    /// Whether the media last asked for has loaded or failed; fed by the player's events.
    public let watch: PlayWatch

    /// A slot whose player `make` builds on first use; `watch` hears what the made player
    /// reports, when `make` hands it the events.
    public init(watch: PlayWatch = PlayWatch(), make: @escaping @Sendable () -> Player) {
        self.watch = watch
        self.make = make
    }

    /// An `MPVPlayer` from `player.*`, its volume kept beside the config at `configPath`.
    /// `onFailure` hears the player's own failures (a stream that fails to load, mpv dying);
    /// `watch` hears them after it, and when a stream loads.
    public static func mpv(
        config: @escaping @Sendable () -> Config, configPath: String, logger: Logger,
        onFailure: (@Sendable (PlayerError) -> Void)? = nil
    ) -> SpeakerPlayer {
        let watch = PlayWatch()
        return SpeakerPlayer(watch: watch) {
            // A speaker serving the other rooms plays into Snapcast's pipe.
            let current = config()
            var settings = current.player
            let state = StateDirectory(configPath: configPath)
            settings.args += Multiroom(config: current, pipe: state.multiroomPipe).playerArguments
            let player = MPVPlayer(config: settings, stateFile: PlayerStateFile(nextToConfig: configPath), logger: logger)
            player.setEventHandler { event in
                if case .failed(let error) = event { onFailure?(error) }
                // After `onFailure`: whatever it queued to say is there once the outcome is known.
                watch.heard(event)
            }
            return player
        }
    }

    /// The player if one was made; nil before the first use (nothing plays then).
    public var current: Player? {
        state.withLock { $0.player }
    }

    /// The player, made now if needed (or made anew, when `reconfigure()` was called and
    /// nothing is loaded).
    /// - Throws: `PlayerError` `.startFailed` after `shutdown()`.
    public func player() throws(PlayerError) -> Player {
        retireIfStale()
        let made: Player? = state.withLock { state in
            guard !state.isShutDown else { return nil }
            if let player = state.player { return player }
            let created = make()
            state.player = created
            return created
        }
        guard let made else { throw PlayerError(.startFailed, "the speaker is shutting down") }
        return made
    }

    /// The player settings (`player.command`, `player.args`) have changed: the player is made
    /// anew with them (`make` is called again) as soon as nothing is loaded in it, now or at a
    /// later use, so music that plays is not cut.
    public func reconfigure() {
        state.withLock { $0.isStale = $0.player != nil }
        retireIfStale()
    }

    /// Drops a stale player when nothing is loaded in it; its state is asked without the lock.
    private func retireIfStale() {
        guard let stale = state.withLock({ $0.isStale ? $0.player : nil }), stale.state == .idle else { return }
        let retired = state.withLock { state -> Player? in
            guard state.isStale, let player = state.player, player === stale else { return nil }
            state.player = nil
            state.isStale = false
            return player
        }
        retired?.shutdown()
    }

    /// Stops the player process, if one was started; later calls do nothing.
    public func shutdown() {
        let player = state.withLock { state in
            defer {
                state.player = nil
                state.isShutDown = true
            }
            return state.player
        }
        player?.shutdown()
    }
}

/// Whether the media last asked for has started or failed, so the interaction that asked can
/// say a failure before it ends (`PipelineEnvironment.outcomeWords`). Thread-safe: the
/// player's event queue reports, the pipeline's thread asks.
public final class PlayWatch: Sendable {
    private let pending = Mutex(false)

    /// A watch with nothing pending.
    public init() {}

    /// Media is about to be asked for: its outcome is pending until the player reports that
    /// it loaded or failed, or `settle()` is called.
    public func expect() {
        pending.withLock { $0 = true }
    }

    /// Nothing more will come of the media last expected (the player refused it at once).
    public func settle() {
        pending.withLock { $0 = false }
    }

    /// Whether the outcome of the media last expected is still to come.
    public var isPending: Bool {
        pending.withLock { $0 }
    }

    /// The player reported `event`: a loaded stream or a failure settles the outcome.
    public func heard(_ event: PlayerEvent) {
        switch event {
        case .fileLoaded, .failed: settle()
        default: break
        }
    }
}
