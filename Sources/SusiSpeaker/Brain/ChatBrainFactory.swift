import SusiBrain
import SusiCore
import SusiModel
import SusiNet

/// Builds the `ChatBrain` for `brain.mode` (or for `susi ask --local` / `--server URL`).
public enum ChatBrainFactory {
    /// Which brain to build.
    public enum Mode: String, Sendable, CaseIterable {
        /// Built-in skills only; never touches the network.
        case local
        /// The SUSI server only.
        case remote
        /// Local intents locally, the rest remote, local fallback.
        case hybrid
    }

    /// The brain for `mode` (default: the config's `brain.mode`; an unknown value means hybrid).
    ///
    /// `server` overrides `brain.server` (and `susi ask --server URL` passes `.remote`).
    /// `account` supplies the access token for remote queries. `onFallback` is handed to
    /// `HybridBrain`, which is wrapped in an `OutageNoticeBrain` (the first fallback of an
    /// outage says so).
    ///
    /// `backoff` makes the brain of the voice path (`susi run`), where someone waits in silence:
    /// the server gets `brain.voice_timeout_seconds` (at most `brain.timeout_seconds`) and, once
    /// it timed out or could not be reached, is left alone on `backoff`'s schedule while the
    /// speaker answers offline at once (`BackingOffChatClient`). Without it (`susi ask`: one
    /// question) every query asks the server with `brain.timeout_seconds`.
    public static func make(
        config: Config, mode: Mode? = nil, server: String? = nil, http: any HTTPClient, local: LocalChatBrain,
        account: AccountStore? = nil, logger: Logger = .silent, backoff: ChatBackoff? = nil,
        onFallback: (@Sendable (any SusiError) -> Void)? = nil
    ) -> any ChatBrain & Sendable {
        let chosen = mode ?? Mode(rawValue: config.brain.mode) ?? .hybrid
        if chosen == .local { return local }
        var asked = config
        if backoff != nil {
            asked.brain.timeoutSeconds = min(config.brain.timeoutSeconds, config.brain.voiceTimeoutSeconds)
        }
        let client = SusiChatClient(config: asked, http: http, account: account, server: server, logger: logger)
        var remote: any ChatBrain & Sendable = client
        if let backoff {
            // Checks ask anonymously and without the location: a background "hello" is no
            // question of the owner's, and only needs to come back in time.
            let probe = SusiChatClient(
                server: client.server, timeout: client.timeout, language: client.language, http: http, logger: logger)
            remote = BackingOffChatClient(remote: client, probe: probe, backoff: backoff, logger: logger)
        }
        guard chosen == .hybrid else { return remote }
        return OutageNoticeBrain(
            HybridBrain(
                local: local, remote: remote, policy: HybridRoutingPolicy(skills: local.brain.skills), logger: logger,
                onFallback: onFallback))
    }
}
