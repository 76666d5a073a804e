import Foundation

/// Friendly accent names and the eSpeak NG voice ids they stand for.
///
/// The ids are those `espeak-ng --voices=en` lists on Debian 12.
public enum VoiceCatalog {
    /// One voice: its id, the name used when speaking about it, and what people call it.
    public struct Entry: Sendable, Equatable {
        /// eSpeak NG voice id, the value of `tts.voice`.
        public let id: String
        /// How the speaker names it ("British").
        public let name: String
        /// Words people use for it, lower case.
        public let aliases: [String]
    }

    /// Every voice the brain can switch to.
    public static let entries: [Entry] = [
        Entry(
            id: "en-us", name: "American",
            aliases: ["american", "america", "usa", "united states", "yankee", "default", "standard"]),
        Entry(
            id: "en-gb", name: "British",
            aliases: [
                "british", "britain", "great britain", "uk", "united kingdom", "english", "england",
                "london", "london english",
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

    /// The voice named somewhere in `text` ("a british accent", "talk like a new yorker", or an
    /// id such as "en-gb"); the longest matching alias wins. `nil` when none is named. Aliases
    /// avoid everyday words ("us", "normal") because whole queries are searched.
    public static func lookup(_ text: String) -> Entry? {
        let words = QueryNormalizer.words(text)
        let padded = " " + words.joined(separator: " ") + " "
        let joined = words.joined()
        var best: (entry: Entry, length: Int)?
        for entry in entries {
            // Ids come through normalisation as "en gb x rp"; compare with separators removed.
            let idKey = entry.id.replacingOccurrences(of: "-", with: "")
            if joined == idKey { return entry }
            for alias in entry.aliases where padded.contains(" \(alias) ") {
                if alias.count > (best?.length ?? 0) { best = (entry, alias.count) }
            }
        }
        return best?.entry
    }

    /// The friendly name of a voice id, or the id itself when it is not in the catalog.
    public static func name(of id: String) -> String {
        entries.first { $0.id == id.lowercased() }?.name ?? id
    }

    /// The friendly names, for "which voices do you have": "American, British, ... and Lancastrian".
    public static var spokenList: String {
        let names = entries.map(\.name)
        guard let last = names.last else { return "" }
        return names.dropLast().joined(separator: ", ") + " and " + last
    }
}
