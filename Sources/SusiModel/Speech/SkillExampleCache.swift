import Foundation
import SusiCore

/// The example queries of SUSI.AI's skills, as last fetched from the server's skill CMS and
/// kept beside the language model cache, so the recogniser can hear them offline.
///
/// Never fetched (or offline since) is a normal state: the file is then missing and the
/// recogniser knows the bundled skills and the query domain only.
public struct SkillExampleCache: Codable, Sendable, Equatable {
    /// When the examples were fetched.
    public var fetchedAt: Date
    /// The server they came from.
    public var server: String
    /// The example queries, duplicates removed, in the server's order.
    public var examples: [String]

    /// The file's name in the cache directory.
    public static let fileName = "skill-examples.json"
    /// How old a fetch may get before the next one is due: a day.
    public static let refreshInterval: TimeInterval = 24 * 3600

    /// Examples fetched from `server` at `fetchedAt`.
    public init(fetchedAt: Date, server: String, examples: [String]) {
        self.fetchedAt = fetchedAt
        self.server = server
        var seen = Set<String>()
        self.examples = examples.filter { seen.insert($0).inserted }
    }

    /// The cache in `directory`; nil when there is none or it cannot be read.
    public static func read(from directory: String) -> SkillExampleCache? {
        guard let data = FileManager.default.contents(atPath: directory + "/" + fileName) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try? decoder.decode(SkillExampleCache.self, from: data)
    }

    /// Writes the cache into `directory` (created when missing), atomically.
    public func write(to directory: String) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try AtomicFile.write(encoder.encode(self), to: directory + "/" + Self.fileName, mode: 0o644)
    }

    /// Whether a fetch from `server` is due at `now`: never fetched from it, or over a day ago.
    public static func isDue(in directory: String, server: String, now: Date = Date()) -> Bool {
        guard let cache = read(from: directory), cache.server == server else { return true }
        return now.timeIntervalSince(cache.fetchedAt) >= refreshInterval || now < cache.fetchedAt
    }
}
