import Foundation
import SusiCore
import SusiModel

/// Fetches the example queries of SUSI.AI's skills (`/cms/getSkillList.json`, each skill's
/// `examples`) and keeps them in `SkillExampleCache`, so the recogniser can hear what the
/// server's skills answer.
///
/// Blocking (up to `timeout` seconds); `refreshInBackground` runs it on a thread of its own,
/// so a command is never kept waiting for it. Offline or never fetched is normal: the cache
/// stays as it was and the recogniser does without.
public struct SkillExampleFetcher: Sendable {
    /// The server base URL (`brain.server`).
    public let server: String
    /// The skills' language (ISO 639-1, `brain.language`).
    public let language: String
    /// Whole-request limit in seconds.
    public let timeout: Double
    private let http: any HTTPClient
    private let logger: Logger

    /// The list of every skill with its metadata is large: a few MB from the public server.
    static let maxResponseBytes = 32 * 1024 * 1024

    /// A fetcher for `server`'s skills in `language`.
    public init(server: String, language: String = "en", http: any HTTPClient, timeout: Double = 30, logger: Logger = .silent) {
        self.server = server
        self.language = language
        self.http = http
        self.timeout = timeout
        self.logger = logger
    }

    /// Every skill's examples (skills in name order), duplicates and blanks dropped.
    ///
    /// - Throws: the `skill-` codes of `SusiAPIError` (transport, status, `skill-bad-json`).
    public func fetch() throws(SusiAPIError) -> [String] {
        let path = "/cms/getSkillList.json"
        let request = HTTPRequest(
            url: SusiReply.url(server, path),
            query: [("model", "general"), ("group", "All"), ("language", language)],
            connectTimeout: min(timeout, 5), totalTimeout: timeout, maxResponseBytes: Self.maxResponseBytes)
        let response = try SusiReply.send(request, with: http, service: .skill)
        let object = try SusiReply.object(response, service: .skill, path: path)
        // Skills come as an object by name ("skills") and, with a filter, as a list ("filteredData").
        var skills: [JSONValue] = []
        if let byName = object["skills"]?.objectValue {
            skills += byName.keys.sorted().compactMap { byName[$0] }
        }
        skills += object["filteredData"]?.arrayValue ?? []
        var seen = Set<String>()
        var examples: [String] = []
        for skill in skills {
            for example in skill["examples"]?.arrayValue ?? [] {
                guard let text = example.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty,
                    seen.insert(text).inserted
                else { continue }
                examples.append(text)
            }
        }
        logger.debug("\(path): \(skills.count) skills, \(examples.count) examples")
        return examples
    }

    /// Fetches and caches the examples in `cacheDirectory` when the last fetch from this
    /// server is a day old or missing; returns whether the cache changed. A failure is logged
    /// and leaves the cache as it was.
    @discardableResult
    public func refresh(cacheDirectory: String, now: Date = Date()) -> Bool {
        guard SkillExampleCache.isDue(in: cacheDirectory, server: server, now: now) else { return false }
        do {
            let examples = try fetch()
            let old = SkillExampleCache.read(from: cacheDirectory)
            try SkillExampleCache(fetchedAt: now, server: server, examples: examples).write(to: cacheDirectory)
            logger.info("fetched \(examples.count) SUSI.AI skill examples; the recogniser hears them from its next start")
            return old?.examples != examples || old?.server != server
        } catch {
            logger.info("SUSI.AI skill examples not fetched (offline?): \(error)")
            return false
        }
    }

    /// `refresh` on a low-priority thread of its own; returns at once.
    public func refreshInBackground(cacheDirectory: String) {
        let thread = Thread { [self] in _ = refresh(cacheDirectory: cacheDirectory) }
        thread.qualityOfService = .background
        thread.start()
    }
}
