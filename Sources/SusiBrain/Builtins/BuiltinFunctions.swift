import SusiModel

/// The functions a `!console:` block can call with `"function"` and `"argument"` instead of
/// fetching a URL. Each returns one data row whose fields the answer and actions use, or fails
/// (then the next candidate intent is tried).
///
/// | function | argument | row fields |
/// |---|---|---|
/// | `calculate` | "seven times eight" | `expression` ("7 times 8"), `result` ("56"; missing when dividing by zero) |
/// | `number` | "twenty two" | `number` ("22") |
/// | `duration` | "two minutes" | `seconds`, `milliseconds`, `duration` ("2 minutes") |
/// | `voice` | "a british accent" | `voice` ("en-gb"), `voice_name` ("British") |
/// | `rate` | "faster", "slower", "normal", "200" | `rate` (words per minute, 80-450) |
/// | `volume` | "up", "down", "max", "mute", "40" | `volume` (0-100) |
/// | `clock_time` | "6:30 pm on weekdays" | `hour` (0-23), `minute`, `time` ("6:30 PM"), `repeat` ("weekdays" or "once"), `either` ("true" when said without am or pm) |
/// | `home` | "turn on the kitchen lights" | `entity_id` (ids, comma-separated), `name`, `area`, `number`; `none` when no name is found but a kind of thing is ("lights"), else it fails |
/// | `home_known` | "is the front door open" | as `home`, but fails when no Home Assistant name is in the query |
enum BuiltinFunctions {
    /// The names skill files may use.
    static let names: Set<String> = [
        "calculate", "number", "duration", "voice", "rate", "volume", "clock_time", "home", "home_known",
    ]

    /// Rate change for one "faster" or "slower", in words per minute.
    static let rateStep = 25
    /// Slowest and fastest rate offered; eSpeak NG accepts 80-450.
    static let rateRange = 80...450
    /// Volume change for one "louder" or "quieter", in percent.

    static func call(_ name: String, argument: String, context: BrainContext) -> [String: JSONValue]? {
        switch name {
        case "calculate": return calculate(argument)
        case "number":
            guard let value = NumberWords.value(of: argument) ?? NumberWords.firstNumber(in: argument)
            else { return nil }
            return ["number": .string(Calculator.format(value))]
        case "duration":
            guard let seconds = DurationParser.seconds(in: argument) else { return nil }
            let whole = seconds.rounded()
            return [
                "seconds": .number(whole),
                "milliseconds": .number(whole * 1000),
                "duration": .string(DurationParser.spoken(seconds: whole)),
            ]
        case "voice":
            guard let entry = AccentCatalog.entry(mentionedIn: QueryNormalizer.words(argument)) else { return nil }
            return ["voice": .string(entry.id), "voice_name": .string(entry.name)]
        case "rate": return rate(argument, current: context.rate)
        case "volume": return volume(argument, current: context.volume, step: context.volumeStep)
        case "clock_time":
            // "wake me up in ten minutes" is a duration, not ten o'clock.
            guard DurationParser.seconds(in: argument) == nil, let time = ClockTimeParser.read(argument) else { return nil }
            return [
                "hour": .number(Double(time.hour)), "minute": .number(Double(time.minute)),
                "time": .string(PlannedAnswers.spoken(hour: time.hour, minute: time.minute)),
                "repeat": .string(time.weekdays ? "weekdays" : "once"), "either": .string(time.eitherHalf ? "true" : "false"),
            ]
        case "home":
            // No known name: still the home's when it names a kind of thing a home has ("the
            // garden lights"), so the speaker says it knows none; else another skill's ("turn on shuffle").
            return home(argument, in: context.home)
                ?? (HomeDirectory.namesAKind(QueryNormalizer.words(argument)) ? homeNotFound : nil)
        case "home_known": return home(argument, in: context.home)
        default: return nil
        }
    }

    /// The fields of `home` when no name was found (or no Home Assistant is set up): the
    /// speaker then says so. Never empty, since an empty value stops an answer.
    static let homeNotFound: [String: JSONValue] = [
        "entity_id": "none", "name": "none", "area": "none", "number": "none",
    ]

    /// The Home Assistant entity or area named in `query`, and the number said beside it.
    private static func home(_ query: String, in directory: HomeDirectory?) -> [String: JSONValue]? {
        guard let directory, let target = directory.find(in: QueryNormalizer.words(query)), !target.entities.isEmpty
        else { return nil }
        let number = NumberWords.firstNumber(in: target.rest.joined(separator: " ")).map(Calculator.format)
        return [
            "entity_id": .string(target.entities.map(\.id).joined(separator: ",")),
            "name": .string(target.name),
            "area": .string(target.area?.id ?? "none"),
            "number": .string(number ?? "none"),
        ]
    }

    private static func calculate(_ argument: String) -> [String: JSONValue]? {
        do {
            let (expression, value) = try Calculator.evaluate(argument)
            return ["expression": .string(expression), "result": .string(Calculator.format(value))]
        } catch .divisionByZero(let expression) {
            return ["expression": .string(expression)]
        } catch {
            return nil
        }
    }

    private static func rate(_ argument: String, current: Int) -> [String: JSONValue]? {
        let words = Set(QueryNormalizer.words(argument))
        let step = words.contains("much") || words.contains("lot") ? rateStep * 2 : rateStep
        var rate: Int
        if !words.isDisjoint(with: ["faster", "quicker", "quickly", "fast", "quick", "up"]) {
            rate = current + step
        } else if !words.isDisjoint(with: ["slower", "slowly", "slow", "down"]) {
            rate = current - step
        } else if !words.isDisjoint(with: [
            "normal", "normally", "default", "usual", "regular", "reset",
        ]) {
            rate = 175
        } else if let number = NumberWords.firstNumber(in: argument) {
            rate = Int(number.rounded())
        } else {
            return nil
        }
        rate = min(rateRange.upperBound, max(rateRange.lowerBound, rate))
        return ["rate": .number(Double(rate))]
    }

    private static func volume(_ argument: String, current: Int, step volumeStep: Int) -> [String: JSONValue]? {
        let words = Set(QueryNormalizer.words(argument))
        // "too loud" asks for less; "too quiet" for more.
        let tooLoud = words.contains("too") && !words.isDisjoint(with: ["loud", "high"])
        let tooQuiet = words.contains("too") && !words.isDisjoint(with: ["quiet", "soft", "low"])
        let up =
            tooQuiet
            || (!tooLoud
                && !words.isDisjoint(with: ["up", "louder", "higher", "increase", "raise", "more"]))
        let down =
            tooLoud
            || (!tooQuiet
                && !words.isDisjoint(with: [
                    "down", "quieter", "lower", "softer", "decrease", "reduce", "less",
                ]))
        let number = NumberWords.firstNumber(in: argument).map { Int($0.rounded()) }
        var volume: Int
        if let number, up != down, words.contains("by") {
            // "turn it up by 20" is relative; "set it to 20" is not.
            volume = current + (up ? number : -number)
        } else if let number {
            volume = number
        } else if up && !down {
            volume = current + volumeStep
        } else if down && !up {
            volume = current - volumeStep
        } else if !words.isDisjoint(with: ["max", "maximum", "full", "loudest", "highest"]) {
            volume = 100
        } else if !words.isDisjoint(with: ["mute", "off", "silent", "silence", "zero"]) {
            volume = 0
        } else if !words.isDisjoint(with: ["min", "minimum", "lowest"]) {
            volume = 10
        } else if words.contains("half") {
            volume = 50
        } else {
            return nil
        }
        volume = min(100, max(0, volume))
        return ["volume": .number(Double(volume))]
    }
}
