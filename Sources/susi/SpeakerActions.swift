import Foundation
import SusiCore
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

    init(live: LiveConfig, configPath: String, logger: Logger) {
        self.live = live
        self.configPath = configPath
        self.logger = logger
    }

    /// Performs `action`; returns the failure to report, if any.
    func perform(_ action: ChatAction) -> (any SusiError)? {
        do {
            switch action {
            case .settings(let setting):
                try live.set(setting.key, to: setting.value)
                logger.info("\(setting.key) = \(setting.value)")
            case .answer(let answer) where answer.isPlanned:
                logger.warning("planned answers are not scheduled yet: \(answer.expression)")
            case .audioPlay, .videoPlay, .audioVolume, .stop, .pause, .resume, .restart, .next, .previous, .shuffle:
                try mediaPlayer().perform(action)
            default:
                break
            }
            return nil
        } catch let error as any SusiError {
            return error
        } catch {
            return PipelineError(stage: .player, code: "player-failed", message: "\(error)")
        }
    }

    /// The speaker's media player, made on first use.
    func mediaPlayer() -> MPVPlayer {
        lock.withLock {
            if let player { return player }
            let created = MPVPlayer(
                config: live.current.player, stateFile: PlayerStateFile(nextToConfig: configPath), logger: logger.child("player"))
            player = created
            return created
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
