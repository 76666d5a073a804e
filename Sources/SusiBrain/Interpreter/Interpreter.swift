import Foundation
import SusiCore

/// Finds the best intent for a query and renders its answer. Immutable, so one instance
/// serves any number of threads.
struct Interpreter: Sendable {
    /// One pattern of one intent, in load order.
    private struct Entry: Sendable {
        let skill: Int
        let intent: Int
        let pattern: SkillPattern
    }

    /// What a successful intent produced.
    struct Outcome {
        let skill: Skill
        let intent: SkillIntent
        let actions: [ChatAction]
        let data: [[String: JSONValue]]
    }

    let skills: [Skill]
    private let entries: [Entry]
    private let fetcher: any SkillDataFetcher
    private let logger: Logger

    init(skills: [Skill], fetcher: any SkillDataFetcher, logger: Logger) {
        self.skills = skills
        self.fetcher = fetcher
        self.logger = logger
        var entries: [Entry] = []
        for (skillIndex, skill) in skills.enumerated() {
            for (intentIndex, intent) in skill.intents.enumerated() {
                for pattern in intent.compiledPatterns {
                    entries.append(Entry(skill: skillIndex, intent: intentIndex, pattern: pattern))
                }
            }
        }
        self.entries = entries
    }

    /// One intent whose pattern matches a query, with its captures and rank.
    private struct Candidate {
        let skill: Int
        let intent: Int
        let captures: [String]
    }

    /// The intents whose patterns match `words`, most specific first (load order for ties),
    /// each with its best pattern's captures.
    private func candidates(for words: [String]) -> [Candidate] {
        let wordSet = Set(words)
        // Best match per intent, keyed by (skill, intent); order keeps load order for ties.
        var best: [Int: (rank: MatchRank, order: Int, skill: Int, intent: Int, captures: [String])] =
            [:]
        for (order, entry) in entries.enumerated()
        where entry.pattern.literals.allSatisfy(wordSet.contains) {
            guard let captures = entry.pattern.match(words) else { continue }
            let rank = MatchRank(
                literals: entry.pattern.literals.count,
                wildcards: entry.pattern.wildcardCount,
                capturedWords: words.count - entry.pattern.literals.count)
            let key = entry.skill << 20 | entry.intent
            if let existing = best[key], !(existing.rank < rank) { continue }
            best[key] = (rank, order, entry.skill, entry.intent, captures)
        }
        return best.values.sorted { lhs, rhs in
            lhs.rank != rhs.rank ? rhs.rank < lhs.rank : lhs.order < rhs.order
        }.map { Candidate(skill: $0.skill, intent: $0.intent, captures: $0.captures) }
    }

    /// The answer of the most specific intent that can answer, trying candidates in rank
    /// order; `nil` when none can.
    func respond(words: [String], context: BrainContext, now: Date, pick: (Int) -> Int) -> Outcome? {
        let normalized = words.joined(separator: " ")
        for candidate in candidates(for: words) {
            let skill = skills[candidate.skill]
            let intent = skill.intents[candidate.intent]
            if let outcome = evaluate(
                skill: skill, intent: intent, captures: [normalized] + candidate.captures,
                context: context, now: now, pick: pick)
            {
                return outcome
            }
            logger.debug(
                "\(skill.id):\(intent.line) could not answer \"\(normalized)\"; trying the next candidate")
        }
        return nil
    }

    /// The intent that would answer `words`, found cheaply: the most specific candidate whose
    /// built-in console function (if any) accepts the words. Console URLs are not fetched (an
    /// intent with one counts as answering) and answers are not rendered, so this never
    /// blocks; nil when no intent matches. `captures` are what its wildcards took.
    func match(words: [String], context: BrainContext, now: Date)
        -> (skill: Skill, intent: SkillIntent, captures: [String])?
    {
        let normalized = words.joined(separator: " ")
        for candidate in candidates(for: words) {
            let skill = skills[candidate.skill]
            let intent = skill.intents[candidate.intent]
            if let console = intent.console, console.url == nil, let function = console.function {
                let captures = [normalized] + candidate.captures
                let resolve = { (name: String) in
                    Self.resolve(name, captures: captures, row: nil, context: context, now: now)
                }
                guard let argument = console.argument.render(resolve),
                    BuiltinFunctions.call(function, argument: argument, context: context) != nil
                else { continue }
            }
            return (skill, intent, candidate.captures)
        }
        return nil
    }

    private func evaluate(
        skill: Skill, intent: SkillIntent, captures: [String], context: BrainContext, now: Date,
        pick: (Int) -> Int
    ) -> Outcome? {
        var rows: [[String: JSONValue]] = []
        var fromURL = false
        let plainResolve = { (name: String) in
            Self.resolve(name, captures: captures, row: nil, context: context, now: now)
        }
        if let console = intent.console {
            if let url = console.url {
                guard let address = url.render(escape: Self.percentEncode, plainResolve) else { return nil }
                guard let fetched = fetchRows(address, path: console.path, skill: skill, intent: intent)
                else { return nil }
                rows = fetched
                fromURL = true
            } else if let function = console.function {
                guard let argument = console.argument.render(plainResolve),
                    let row = BuiltinFunctions.call(function, argument: argument, context: context)
                else { return nil }
                rows = [row]
            }
        }
        let row = rows.first
        let resolve = { (name: String) in
            Self.resolve(name, captures: captures, row: row, context: context, now: now)
        }

        var expression: String?
        let choices = intent.console?.answer ?? intent.answers
        if !choices.isEmpty {
            guard let text = Self.render(choices, pick: pick, resolve) else { return nil }
            expression = text
        }
        var actions: [ChatAction] = []
        if let expression, !expression.trimmingCharacters(in: .whitespaces).isEmpty {
            actions.append(.answer(AnswerAction(expression: expression, language: context.language)))
        }
        if let template = intent.console?.actionsTemplate {
            guard let json = template.render(escape: JSONValue.escape, resolve),
                let extra = try? JSONDecoder().decode([ChatAction].self, from: Data(json.utf8))
            else { return nil }
            actions += extra
        }
        guard !actions.isEmpty else { return nil }
        var data = rows
        if !fromURL {
            // As SUSI does, plain answers carry the captures as a row ("0" is the whole query).
            var captureRow: [String: JSONValue] = [:]
            for (index, capture) in captures.enumerated() { captureRow[String(index)] = .string(capture) }
            data = [captureRow.merging(row ?? [:]) { _, computed in computed }]
        }
        return Outcome(skill: skill, intent: intent, actions: actions, data: data)
    }

    private func fetchRows(_ address: String, path: JSONPath, skill: Skill, intent: SkillIntent)
        -> [[String: JSONValue]]?
    {
        let body: Data
        do {
            body = try fetcher.fetchJSON(url: address)
        } catch {
            logger.warning("\(skill.id):\(intent.line): \(error.message)")
            return nil
        }
        guard let json = try? JSONValue.parse(body) else {
            logger.warning("\(skill.id):\(intent.line): console data is not JSON")
            return nil
        }
        guard let selected = path.select(in: json) else {
            logger.debug("\(skill.id):\(intent.line): console path selects nothing")
            return nil
        }
        let rows: [[String: JSONValue]]
        switch selected {
        case .array(let elements): rows = elements.map { $0.objectValue ?? ["object": $0] }
        case .object(let members): rows = [members]
        case .null: rows = []
        default: rows = [["object": selected]]
        }
        return rows.isEmpty ? nil : rows
    }

    /// Picks one answer alternative and fills it in; `nil` when a needed value is missing.
    private static func render(
        _ choices: [AnswerChoice], pick: (Int) -> Int, _ resolve: (String) -> String?
    ) -> String? {
        func pickOne(_ templates: [AnswerTemplate]) -> AnswerTemplate? {
            guard !templates.isEmpty else { return nil }
            return templates[min(templates.count - 1, max(0, pick(templates.count)))]
        }
        guard !choices.isEmpty else { return nil }
        switch choices[min(choices.count - 1, max(0, pick(choices.count)))] {
        case .plain(let template):
            return template.render(resolve)
        case .conditional(let variable, let equals, let then, let otherwise):
            let value = resolve(variable) ?? ""
            let holds = equals.map { value.caseInsensitiveCompare($0) == .orderedSame } ?? !value.isEmpty
            return pickOne(holds ? then : otherwise)?.render(resolve)
        }
    }

    /// A placeholder's value: captures by number, the atom for `!`/`object`, fields of the data
    /// row (dotted names walk into objects), then built-in values.
    static func resolve(
        _ name: String, captures: [String], row: [String: JSONValue]?, context: BrainContext, now: Date
    ) -> String? {
        if let index = Int(name) {
            return captures.indices.contains(index) ? captures[index] : nil
        }
        if name == "!" || name == "object" {
            if let atom = row?["object"] { return text(of: atom) }
            return nil
        }
        if let row {
            if let value = row[name] { return text(of: value) }
            if name.contains(".") {
                let parts = name.split(separator: ".").map(String.init)
                if let first = parts.first, var value = row[first] {
                    var found = true
                    for part in parts.dropFirst() {
                        if let next = (Int(part).flatMap { value[$0] }) ?? value[part] {
                            value = next
                        } else {
                            found = false
                            break
                        }
                    }
                    if found { return text(of: value) }
                }
            }
        }
        return BuiltinValues.value(name, context: context, now: now)
    }

    private static func text(of value: JSONValue) -> String? {
        switch value {
        case .array, .object: return value.jsonText
        default: return value.stringValue
        }
    }

    private static let urlAllowed: CharacterSet = {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+?#/")
        return allowed
    }()

    private static func percentEncode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: urlAllowed) ?? ""
    }
}
