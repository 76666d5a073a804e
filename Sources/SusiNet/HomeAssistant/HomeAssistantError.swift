import SusiCore

/// Why the speaker could not do what was asked of Home Assistant.
public typealias HomeAssistantError = StageError<HomeAssistantErrorKind>

/// The failure classes of a Home Assistant call, each with a stable code (stage `brain`: the
/// answer could not be carried out) and a sentence to say (`spoken`).
public enum HomeAssistantErrorKind: String, StageErrorKind, CaseIterable {
    /// `home_assistant.url` or the token is not set.
    case notConfigured = "home-not-configured"
    /// Nothing answered at the URL (refused, no such host, timed out).
    case unreachable = "home-unreachable"
    /// HTTP 401 or 403: the token is wrong, expired or revoked.
    case unauthorized = "home-unauthorized"
    /// No entity or area of that name, or HTTP 404 for an entity id.
    case unknownEntity = "home-unknown-entity"
    /// Any other refusal (HTTP 400, 5xx) or a reply that is not the JSON expected.
    case failed = "home-failed"

    public var stage: Stage { .brain }

    /// What the speaker says when this happens.
    public var spoken: String {
        switch self {
        case .notConfigured:
            return "Home Assistant is not set up yet. Set its address and access token in my settings."
        case .unreachable: return "Sorry, I can't reach Home Assistant right now."
        case .unauthorized: return "Sorry, Home Assistant refused my access token. Please give me a new one."
        case .unknownEntity: return "Sorry, Home Assistant has nothing by that name."
        case .failed: return "Sorry, Home Assistant could not do that."
        }
    }
}
