import Foundation
import SusiBrain
import SusiCore
import SusiNet

/// Fetches console data with SusiNet's `HTTPClient` (libcurl in production).
///
/// A skill's URL is fetched with short timeouts and a small size cap: the speaker is waiting
/// for the answer, and a slow service must fall through to the next candidate rather than
/// keep the person waiting.
public struct HTTPSkillDataFetcher: SkillDataFetcher {
    private let client: any HTTPClient
    private let connectTimeout: Double
    private let totalTimeout: Double
    private let maxResponseBytes: Int

    /// Creates a fetcher over `client`; times in seconds.
    public init(
        client: any HTTPClient = CurlHTTPClient(stage: .brain),
        connectTimeout: Double = 2,
        totalTimeout: Double = 4,
        maxResponseBytes: Int = 1024 * 1024
    ) {
        self.client = client
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.maxResponseBytes = maxResponseBytes
    }

    /// One answer's fetches share the total timeout (see `SkillDataFetcher.answerBudget`).
    public var answerBudget: Double { totalTimeout }

    public func fetchJSON(url: String) throws(BrainError) -> Data {
        try fetchJSON(url: url, timeout: totalTimeout)
    }

    public func fetchJSON(url: String, timeout: Double) throws(BrainError) -> Data {
        let total = min(totalTimeout, max(timeout, 0.05))
        let request = HTTPRequest(
            url: url,
            headers: [(name: "Accept", value: "application/json")],
            connectTimeout: min(connectTimeout, total),
            totalTimeout: total,
            maxResponseBytes: maxResponseBytes)
        let response: HTTPResponse
        do {
            response = try client.send(request)
        } catch {
            throw BrainError(.fetchFailed, "console fetch failed: \(error.message)")
        }
        guard response.isSuccess else {
            throw BrainError(
                .fetchFailed,
                "console fetch got HTTP \(response.status) from \(request.redactedURL)")
        }
        return response.body
    }
}
