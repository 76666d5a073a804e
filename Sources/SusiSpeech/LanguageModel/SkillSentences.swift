import Foundation

/// Turns skill phrasings into the sentences a person might say to the speaker: every
/// `!example:` query, and every pattern with its wildcards filled.
///
/// A wildcard is filled with what the intent's own examples put there (so a new skill
/// teaches its own fillers), plus, when the words around it say what kind of thing goes
/// there, a few plausible words of that kind: numbers next to arithmetic, durations after
/// "timer", clock times after "alarm", errands on lists and in reminders, accents after
/// "voice", music after "play". Wildcards at the start or end of a
/// pattern ("* what time is it *") get short carrier phrases ("can you", "please").
/// Deterministic: the same skills give the same sentences.
public enum SkillSentences {
    /// One sentence and how much it counts in the n-gram counts.
    public struct Sentence: Sendable, Equatable {
        /// Lower-case words: letters, digits spelled out, apostrophes kept.
        public var words: [String]
        /// Count weight; examples weigh more than generated fillings.
        public var weight: Double
    }

    /// At most this many fillings per pattern alternative; enough that every filler of a
    /// slot class appears somewhere, few enough that wildcard-rich intents do not drown the rest.
    static let fillingsPerPattern = 12
    /// Weight of an `!example:` sentence relative to a generated one.
    static let exampleWeight = 3.0

    static let leadingCarriers = [
        [], ["please"], ["can", "you"], ["could", "you"], ["hey"], ["do", "you", "know"], ["tell", "me"], ["okay"],
        ["i", "want", "to"], ["so"],
    ]
    static let trailingCarriers = [[], ["please"], ["now"], ["for", "me"], ["again"], ["today"], ["right", "now"]]

    static let numbers: [[String]] =
        (0...20).map { SpokenNumbers.words($0) }
        + [30, 40, 50, 60, 70, 80, 90, 100, 25, 45, 99, 1000].map {
            SpokenNumbers.words($0)
        }
    static let durations: [[String]] =
        [
            "one minute", "two minutes", "five minutes", "ten minutes", "fifteen minutes", "twenty minutes",
            "thirty seconds", "ninety seconds", "forty five seconds", "an hour", "half an hour", "one hour",
            "two hours", "a minute", "three minutes", "an hour and a half", "one and a half minutes",
            "four minutes", "six minutes", "seven minutes", "eight minutes", "twelve minutes", "forty minutes",
            "one hour and twenty minutes", "five seconds", "ten seconds", "twenty seconds", "nine minutes",
        ].map { $0.split(separator: " ").map(String.init) }
    /// Clock times as said for alarms and reminders.
    static let clockTimes: [[String]] =
        [
            "seven am", "six thirty", "seven pm", "half past six", "quarter to eight", "eight o'clock", "noon",
            "six am on weekdays", "seven am every weekday", "nine thirty pm", "six forty five am", "five pm",
        ].map { $0.split(separator: " ").map(String.init) }
    /// What a reminder is for, and what goes on a to-do list.
    static let tasks: [[String]] =
        [
            "call mom", "call the bank", "pay the bills", "water the plants", "take out the bins", "walk the dog",
            "check the oven",
        ].map { $0.split(separator: " ").map(String.init) }
    /// What goes on a shopping or to-do list.
    static let errands: [[String]] =
        [
            "milk", "eggs", "bread", "butter", "bananas", "coffee", "cheese", "toilet paper", "orange juice",
        ].map { $0.split(separator: " ").map(String.init) } + tasks
    /// Names of lists.
    static let listNames: [[String]] = [["shopping"], ["to", "do"], ["grocery"], ["todo"], ["packing"]]
    static let accents: [[String]] =
        [
            "american", "british", "scottish", "caribbean", "received pronunciation", "new york", "new yorker",
            "west midlands", "lancastrian", "english", "jamaican", "irish", "australian", "posh",
            "a british", "an american", "a scottish",
        ].map { $0.split(separator: " ").map(String.init) }
    static let music: [[String]] =
        [
            "music", "jazz", "rock", "rock music", "pop", "pop music", "classical music", "reggae", "blues",
            "hip hop", "country music", "the beatles", "bob marley", "queen", "some music", "relaxing music",
            "metal", "techno", "dance music", "folk music", "the radio", "my playlist", "yellow submarine",
            "michael jackson", "madonna", "elvis", "mozart", "beethoven", "the rolling stones", "abba",
            "something", "a song",
        ].map { $0.split(separator: " ").map(String.init) }
    static let generic: [[String]] = [["it"], ["this"], ["that"], ["something"]]

    static let arithmeticWords: Set<String> = [
        "plus", "minus", "times", "multiplied", "divided", "over", "take", "less", "add", "subtract", "multiply",
        "divide", "sum", "product", "number", "digits", "x",
    ]
    static let durationWords: Set<String> = [
        "timer", "remind", "countdown", "count", "ring", "alarm", "wake", "minute", "second", "hour",
    ]
    static let accentWords: Set<String> = ["voice", "accent", "speak", "talk", "sound", "use", "be"]
    static let musicWords: Set<String> = ["play", "hear", "listen", "put", "playing"]
    static let clockWords: Set<String> = ["alarm", "wake", "remind", "alarms"]
    static let listWords: Set<String> = ["list", "shopping"]

    /// The sentences of `phrasings`, duplicates merged (their weights added).
    public static func sentences(from phrasings: SkillPhrasings) -> [Sentence] {
        var order: [[String]] = []
        var weights: [[String]: Double] = [:]
        func add(_ words: [String], _ weight: Double) {
            guard !words.isEmpty else { return }
            if weights[words] == nil { order.append(words) }
            weights[words, default: 0] += weight
        }
        for intent in phrasings.intents {
            let examples = intent.examples.map(words(of:)).filter { !$0.isEmpty }
            for example in examples { add(example, exampleWeight) }
            let alternatives = intent.patterns.map(words(ofPattern:))
            let captures = examples.flatMap { example in
                alternatives.lazy.compactMap { match(example, pattern: $0) }.first ?? []
            }
            for pattern in alternatives where pattern.contains(where: { $0 != "*" }) {
                for sentence in fillings(of: pattern, captures: captures) { add(sentence, 1) }
            }
        }
        return order.map { Sentence(words: $0, weight: weights[$0] ?? 1) }
    }

    /// Lower-case words of a query: letters and apostrophes kept inside words, digits spelled
    /// out, `+` read as "plus", `%` as "percent", other punctuation a word break.
    public static func words(of text: String) -> [String] {
        var tokens: [String] = []
        var current = ""
        func flush() {
            let trimmed = current.trimmingCharacters(in: CharacterSet(charactersIn: "'"))
            if !trimmed.isEmpty {
                if trimmed.first?.isNumber == true {
                    tokens += SpokenNumbers.words(digits: trimmed)
                } else {
                    tokens.append(trimmed)
                }
            }
            current = ""
        }
        for character in text.lowercased() {
            if character.isLetter || character.isNumber || character == "'" {
                if let last = current.last, last.isNumber != character.isNumber, character != "'", last != "'" {
                    flush()
                }
                current.append(character)
            } else if character == "\u{2019}" {
                current.append("'")
            } else if character == "." && current.last?.isNumber == true {
                current.append(character)
            } else {
                flush()
                if character == "+" { tokens.append("plus") }
                if character == "%" { tokens.append("percent") }
            }
        }
        flush()
        return tokens
    }

    /// Words of one pattern alternative, `*` as a word of its own.
    static func words(ofPattern pattern: String) -> [String] {
        pattern.split(separator: "*", omittingEmptySubsequences: false).enumerated().flatMap { index, piece in
            (index == 0 ? [] : ["*"]) + words(of: String(piece))
        }
    }

    /// The words each wildcard of `pattern` took in `sentence` (shortest first), tagged with
    /// the wildcard's index; nil when the sentence does not match. Apostrophes are ignored,
    /// as the brain ignores them.
    static func match(_ sentence: [String], pattern: [String]) -> [(slot: Int, words: [String])]? {
        let plain = sentence.map { $0.replacingOccurrences(of: "'", with: "") }
        let literals = pattern.map { $0.replacingOccurrences(of: "'", with: "") }
        var result: [(slot: Int, words: [String])] = []
        func search(_ s: Int, _ p: Int, _ slot: Int) -> Bool {
            if p == literals.count { return s == plain.count }
            if literals[p] == "*" {
                for end in s...plain.count {
                    result.append((slot, Array(sentence[s..<end])))
                    if search(end, p + 1, slot + 1) { return true }
                    result.removeLast()
                }
                return false
            }
            guard s < plain.count, plain[s] == literals[p] else { return false }
            return search(s + 1, p + 1, slot)
        }
        return search(0, 0, 0) ? result : nil
    }

    /// Up to `fillingsPerPattern` sentences from `pattern`, each wildcard filled in turn with
    /// the next candidate of its slot, so that all candidates are used over the fillings.
    static func fillings(of pattern: [String], captures: [(slot: Int, words: [String])]) -> [[String]] {
        let slots = pattern.indices.filter { pattern[$0] == "*" }
        if slots.isEmpty { return [pattern] }
        let candidates = slots.enumerated().map { index, position in
            candidatesForSlot(at: position, in: pattern, captures: captures.filter { $0.slot == index }.map(\.words))
        }
        let combinations = candidates.reduce(1) { $0 * max(1, $1.count) }
        let count = min(fillingsPerPattern, combinations)
        var sentences: [[String]] = []
        for index in 0..<count {
            var sentence: [String] = []
            var slot = 0
            for word in pattern {
                if word == "*" {
                    let options = candidates[slot]
                    // Different strides per slot so multi-wildcard patterns pair fillers variously.
                    sentence += options.isEmpty ? [] : options[(index * (2 * slot + 1)) % options.count]
                    slot += 1
                } else {
                    sentence.append(word)
                }
            }
            if !sentence.isEmpty { sentences.append(sentence) }
        }
        return sentences
    }

    /// What may stand at the wildcard at `position`: the intent's captured words first, then
    /// carriers (at an edge) or the kind of words its neighbours call for.
    static func candidatesForSlot(at position: Int, in pattern: [String], captures: [[String]]) -> [[String]] {
        var result: [[String]] = []
        var seen = Set<[String]>()
        func add(_ list: [[String]]) {
            for item in list where seen.insert(item).inserted { result.append(item) }
        }
        let literals = Set(pattern.filter { $0 != "*" })
        let atStart = position == 0
        let atEnd = position == pattern.count - 1
        if atStart && !atEnd && literals.isDisjoint(with: arithmeticWords) {
            add(leadingCarriers)
        } else if atEnd && !atStart && literals.isDisjoint(with: musicWords.union(accentWords).union(durationWords)) {
            add(trailingCarriers)
        }
        add(captures.filter { !$0.isEmpty })
        if !literals.isDisjoint(with: arithmeticWords) { add(numbers) }
        // "set an alarm for *" takes a clock time, "wake me up in *" a duration.
        let before = position > 0 ? pattern[position - 1] : ""
        let afterIn = before == "in"
        let clockContext = !literals.isDisjoint(with: clockWords)
        // The reminder's text follows "to"; a clock time follows "at", "for" or "up", and
        // any word but "in" near "alarm".
        if literals.contains("remind"), before == "to" { add(tasks) }
        if clockContext, ["at", "for", "up"].contains(before) || (literals.contains("alarm") && !afterIn) { add(clockTimes) }
        if !literals.isDisjoint(with: durationWords) || pattern.last == "in", !clockContext || afterIn {
            add(durations)
        }
        if !literals.isDisjoint(with: accentWords) { add(accents) }
        if !literals.isDisjoint(with: listWords) {
            // "add * to my * list": the list's name goes right before "list".
            add(position + 1 < pattern.count && pattern[position + 1] == "list" ? listNames : errands)
        }
        if !literals.isDisjoint(with: musicWords) && literals.isDisjoint(with: listWords) { add(music) }
        if result.isEmpty { add(generic) }
        return result
    }
}
