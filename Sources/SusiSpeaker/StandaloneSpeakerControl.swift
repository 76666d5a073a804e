import Foundation
import SusiAudio
import SusiCore
import SusiPlayer
import SusiServer
import SusiSpeech

/// The control routes' `SpeakerControl` without the voice pipeline: mpv for media, eSpeak NG
/// to the sound device for `/say`. Used by `susi setup serve`; the daemon can reuse it (pass
/// its own player so both drive one mpv).
///
/// The player starts on the first `play`; controls before that do nothing, as `MediaPlayer`
/// promises. Speech runs on a thread of its own so `say` returns at once; a new `say` or `stop`
/// cuts the current sentence. The sound device is opened on the first `say`, and only the
/// speaking thread touches it. Failures (no mpv, no sound device, a bad voice) are thrown to
/// the route, which answers them as JSON errors.
///
/// `@unchecked Sendable`: every mutable field is guarded by `lock`; the sink is used only by
/// the thread holding `speaking`.
public final class StandaloneSpeakerControl: SpeakerControl, @unchecked Sendable {
    private let config: @Sendable () -> Config
    private let makePlayer: @Sendable () -> any MediaPlayer
    private let volumeFile: PlayerStateFile
    private let logger: Logger
    private let lock = NSLock()
    /// Held by the speaking thread for a whole sentence, so sentences never overlap.
    private let speaking = NSLock()
    /// Guards opening the sound device, which may take a moment; `lock` stays free meanwhile.
    private let sinkLock = NSLock()
    private var player: (any MediaPlayer)?
    /// Guarded by `sinkLock`.
    private var sink: SpeakerSink?
    private var media: String?
    private var lastInteraction: Date?
    /// Incremented to cut the sentence being spoken.
    private var utterance = 0
    private var isSpeaking = false
    private var isShutDown = false
    private let speaker: (@Sendable (String) -> Void)?

    /// A control reading the config through `config` (e.g. `LiveConfig.current`).
    ///
    /// - Parameters:
    ///   - configPath: the config file; the player's volume file lives beside it.
    ///   - player: makes the media player on first use; default an `MPVPlayer` from `player.*`.
    ///   - speaker: speaks `/say` texts instead of opening the sound device here; the daemon
    ///     hands them to its pipeline, which owns the device.
    public init(
        configPath: String, config: @escaping @Sendable () -> Config, logger: Logger,
        player: (@Sendable () -> any MediaPlayer)? = nil, speaker: (@Sendable (String) -> Void)? = nil
    ) {
        self.config = config
        self.logger = logger
        self.speaker = speaker
        let volumeFile = PlayerStateFile(nextToConfig: configPath)
        self.volumeFile = volumeFile
        self.makePlayer =
            player ?? {
                MPVPlayer(config: config().player, stateFile: volumeFile, logger: logger.child("player"))
            }
    }

    deinit {
        shutdown()
    }

    public func status() -> SpeakerStatus {
        lock.lock()
        let player = self.player
        let speakingNow = isSpeaking
        let media = self.media
        let last = lastInteraction
        lock.unlock()
        let playback = player?.state.rawValue ?? PlayerState.idle.rawValue
        let volume = player?.volume ?? ((try? volumeFile.loadVolume()) ?? nil) ?? config().player.volume
        return SpeakerStatus(
            state: speakingNow ? "speaking" : "idle", playback: playback,
            media: playback == PlayerState.idle.rawValue ? nil : media, volume: volume, lastInteraction: last)
    }

    public func play(identifier: String, type: String) throws {
        try mediaPlayer(starting: true)?.play(identifier: identifier, type: type)
        touch(media: identifier)
    }

    public func pause() throws { try command { try $0.pause() } }
    public func resume() throws { try command { try $0.resume() } }
    public func next() throws { try command { try $0.next() } }
    public func previous() throws { try command { try $0.previous() } }

    public func stop() throws {
        cutSpeech()
        try command { try $0.stop() }
    }

    public func setVolume(_ volume: Int) throws {
        // Without a running player the level is remembered for the next start.
        if let player = try mediaPlayer(starting: false) {
            try player.setVolume(volume)
        } else {
            try volumeFile.save(volume: min(max(volume, 0), 100))
        }
        touch()
    }

    public func changeVolume(by delta: Int) throws {
        let current = status().volume
        try setVolume(min(max(current + delta, 0), 100))
    }

    public func say(_ text: String) throws {
        if let speaker {
            touch()
            return speaker(text)
        }
        let engine = try ESpeakEngine.shared()
        let settings = config()
        let voice = Assembly.voice(settings)
        // Checked here so a bad voice is the route's error, not a silent thread's.
        _ = try engine.espeakVoiceName(for: voice)
        // Opened here so a missing sound device is the route's error too.
        _ = try speakerSink(device: settings.audio.output, sampleRate: engine.format.sampleRate)
        let duck = settings.player.duckVolume
        lock.lock()
        utterance += 1
        let mine = utterance
        lock.unlock()
        touch()
        let thread = Thread { [self] in
            speaking.lock()
            defer { speaking.unlock() }
            guard isCurrent(mine), let output = openedSink() else { return }
            setSpeaking(true)
            let player = currentPlayer()
            player?.duck(to: duck)
            defer {
                player?.unduck()
                setSpeaking(false)
            }
            do {
                let end = try engine.synthesize(text, voice: voice) { chunk in
                    guard isCurrent(mine) else { return false }
                    do {
                        try output.play(chunk)
                    } catch {
                        logger.warning("speaking failed: \(error)")
                        return false
                    }
                    return isCurrent(mine)
                }
                if end == .stopped || !isCurrent(mine) {
                    output.interrupt()
                } else {
                    try output.drain()
                }
            } catch {
                logger.warning("speaking failed: \(error)")
                output.interrupt()
            }
        }
        thread.name = "susi-say"
        thread.start()
    }

    /// Cuts speech and stops the player process; later calls do nothing.
    public func shutdown() {
        lock.lock()
        let player = self.player
        isShutDown = true
        utterance += 1
        lock.unlock()
        player?.shutdown()
        // Wait for a sentence being cut, so the sound device is quiet when this returns.
        if speaking.lock(before: Date().addingTimeInterval(1)) { speaking.unlock() }
    }

    // MARK: Helpers

    private func command(_ body: (any MediaPlayer) throws -> Void) throws {
        if let player = try mediaPlayer(starting: false) { try body(player) }
        touch()
    }

    /// The player; created only when `starting` (a control with no player does nothing).
    private func mediaPlayer(starting: Bool) throws -> (any MediaPlayer)? {
        lock.lock()
        defer { lock.unlock() }
        guard !isShutDown else { throw PlayerError(.startFailed, "the speaker is shutting down") }
        if let player { return player }
        guard starting else { return nil }
        let created = makePlayer()
        player = created
        return created
    }

    private func speakerSink(device: String, sampleRate: Int) throws -> SpeakerSink {
        sinkLock.lock()
        defer { sinkLock.unlock() }
        if let sink { return sink }
        let session = try PortAudioSession(logger: logger.child("audio"))
        let created = try SpeakerSink(session: session, device: device, sampleRate: sampleRate, logger: logger.child("audio"))
        sink = created
        return created
    }

    private func openedSink() -> SpeakerSink? {
        sinkLock.lock()
        defer { sinkLock.unlock() }
        return sink
    }

    private func currentPlayer() -> (any MediaPlayer)? {
        lock.lock()
        defer { lock.unlock() }
        return player
    }

    private func cutSpeech() {
        lock.lock()
        utterance += 1
        lock.unlock()
    }

    private func isCurrent(_ number: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return utterance == number && !isShutDown
    }

    private func setSpeaking(_ value: Bool) {
        lock.lock()
        isSpeaking = value
        lock.unlock()
    }

    private func touch(media: String? = nil) {
        lock.lock()
        if let media { self.media = media }
        lastInteraction = Date()
        lock.unlock()
    }
}
