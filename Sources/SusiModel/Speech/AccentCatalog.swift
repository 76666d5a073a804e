/// The English accents a person can ask for, with the eSpeak NG voice id each stands for and
/// the words people use for it: the one accent-alias table the brain ("talk like a new yorker")
/// and the voice resolver (`susi voice set scottish`) share.
///
/// The ids are those `espeak-ng --voices=en` lists on Debian 12.
public enum AccentCatalog {
    /// One accent: its voice id, the name used when speaking about it, and what people call it.
    public struct Entry: Sendable, Equatable {
        /// eSpeak NG voice id, the value of `tts.voice`.
        public let id: String
        /// How the speaker names it ("British").
        public let name: String
        /// Words people use for it, lower case. They avoid everyday words ("us", "normal")
        /// because whole queries are searched for them.
        public let aliases: [String]
    }

    /// Every accent, in the order the speaker lists them.
    public static let entries: [Entry] = [
        Entry(
            id: "en-us", name: "American",
            aliases: [
                "american", "american english", "america", "usa", "united states", "yankee", "default",
                "standard",
            ]),
        Entry(
            id: "en-gb", name: "British",
            aliases: [
                "british", "british english", "britain", "great britain", "uk", "united kingdom", "english",
                "england", "london", "london english",
            ]),
        Entry(
            id: "en-gb-scotland", name: "Scottish",
            aliases: ["scottish", "scotland", "scots", "scotsman", "scottish english"]),
        Entry(
            id: "en-029", name: "Caribbean",
            aliases: ["caribbean", "jamaican", "jamaica", "west indian", "west indies"]),
        Entry(
            id: "en-gb-x-rp", name: "Received Pronunciation",
            aliases: [
                "received pronunciation", "rp", "posh", "posh british", "queens english", "kings english",
                "bbc",
            ]),
        Entry(
            id: "en-us-nyc", name: "New York",
            aliases: ["new york", "new yorker", "new york city", "nyc", "brooklyn"]),
        Entry(
            id: "en-gb-x-gbcwmd", name: "West Midlands",
            aliases: ["west midlands", "midlands", "birmingham", "brummie"]),
        Entry(
            id: "en-gb-x-gbclan", name: "Lancastrian",
            aliases: ["lancastrian", "lancaster", "lancashire", "north of england"]),
    ]

    /// Names that mean an accent only when they are the whole name given (`susi voice set us`),
    /// never inside a sentence ("tell us a story").
    static let standaloneAliases: [String: String] = ["us": "en-us"]

    /// The accent `name` means as a whole ("scottish", "New York", "us"), compared in lower case
    /// with single spaces; nil when it names none.
    public static func entry(named name: String) -> Entry? {
        let key = name.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
        if let id = standaloneAliases[key] { return entry(id: id) }
        return entries.first { $0.aliases.contains(key) || $0.name.lowercased() == key }
    }

    /// The accent of voice `id` (any case), nil when the id is not an accent here.
    public static func entry(id: String) -> Entry? {
        entries.first { $0.id == id.lowercased() }
    }

    /// The accent named somewhere in an already normalised query (lower-case words without
    /// punctuation): an alias among the words, or the whole query being a voice id
    /// ("en gb x rp"); the longest matching alias wins.
    public static func entry(mentionedIn words: [String]) -> Entry? {
        let padded = " " + words.joined(separator: " ") + " "
        let joined = words.joined()
        var best: (entry: Entry, length: Int)?
        for entry in entries {
            if joined == entry.id.filter({ $0 != "-" }) { return entry }
            for alias in entry.aliases where padded.contains(" \(alias) ") {
                if alias.count > (best?.length ?? 0) { best = (entry, alias.count) }
            }
        }
        return best?.entry
    }

    /// Every name `entry(named:)` understands, sorted, for listings.
    public static var names: [String] {
        (entries.flatMap(\.aliases) + standaloneAliases.keys).sorted()
    }

    /// The friendly name of a voice id, or the id itself when it is not in the catalog.
    public static func name(of id: String) -> String {
        entry(id: id)?.name ?? id
    }

    /// The friendly names, for "which voices do you have": "American, British, ... and Lancastrian".
    public static var spokenList: String {
        let names = entries.map(\.name)
        guard let last = names.last else { return "" }
        return names.dropLast().joined(separator: ", ") + " and " + last
    }
}
