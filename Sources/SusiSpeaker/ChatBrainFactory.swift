import SusiBrain
import SusiCore
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
    public static func make(
        config: Config, mode: Mode? = nil, server: String? = nil, http: any HTTPClient, local: LocalChatBrain,
        account: AccountStore? = nil, logger: Logger = .silent, onFallback: (@Sendable (any SusiError) -> Void)? = nil
    ) -> any ChatBrain & Sendable {
        let chosen = mode ?? Mode(rawValue: config.brain.mode) ?? .hybrid
        switch chosen {
        case .local:
            return local
        case .remote:
            return SusiChatClient(config: config, http: http, account: account, server: server, logger: logger)
        case .hybrid:
            let remote = SusiChatClient(config: config, http: http, account: account, server: server, logger: logger)
            return OutageNoticeBrain(
                HybridBrain(
                    local: local, remote: remote, policy: HybridRoutingPolicy(skills: local.brain.skills), logger: logger,
                    onFallback: onFallback))
        }
    }
}
