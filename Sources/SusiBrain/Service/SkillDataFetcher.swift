import Foundation

/// Fetches the JSON a `!console:` block's `url` names.
///
/// Called on the thread that asked the brain, and may block it for up to the fetcher's
/// timeout. Implementations: `HTTPSkillDataFetcher` (libcurl, in SusiSpeaker), `OfflineSkillDataFetcher`,
/// and in-memory fakes in tests.
public protocol SkillDataFetcher: Sendable {
    /// The body of a successful (2xx) response, or a `brain-fetch-failed` error.
    func fetchJSON(url: String) throws(BrainError) -> Data

    /// The same within at most `timeout` seconds (the rest of the answer's budget).
    func fetchJSON(url: String, timeout: Double) throws(BrainError) -> Data

    /// The most time, in seconds, all fetches of one answer may take together: when one
    /// candidate's fetch times out, the next candidates get only what is left, so an answer
    /// never waits for several timeouts in a row.
    var answerBudget: Double { get }
}

extension SkillDataFetcher {
    /// By default the fetcher's own limits apply and `timeout` is not used.
    public func fetchJSON(url: String, timeout: Double) throws(BrainError) -> Data {
        try fetchJSON(url: url)
    }

    /// By default there is no shared budget.
    public var answerBudget: Double { .infinity }
}

/// A fetcher for a speaker without network access: every fetch fails at once, so console
/// intents fall through to the next candidate.
public struct OfflineSkillDataFetcher: SkillDataFetcher {
    /// Creates the fetcher.
    public init() {}

    public func fetchJSON(url: String) throws(BrainError) -> Data {
        throw BrainError(.fetchFailed, "offline: not fetching \(url)")
    }
}
