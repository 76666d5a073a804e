import Foundation
import SusiCore
import SusiModel

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
        /// Memory assignments the answer made (`>_name`, `^…^>_name`), to keep once it is given.
        let assignments: [AnswerSyntax.Assignment]
    }

    /// The longest a query may spend matching patterns; past it, the best match found so far
    /// answers. Guards against pathological skill sets, not ordinary ones (they take well
    /// under a millisecond).
    static let matchBudget: Duration = .milliseconds(50)
    /// How deep `` `query` `` reflections may nest.
    static let maxReflectionDepth = 4

    let skills: [Skill]
    private let entries: [Entry]
    /// Entry indexes by one literal word of their pattern (the longest one): a pattern can
    /// only match a query holding all its literals, so only the lists of the query's words
    /// need looking at, not every pattern (58,000 of them with the AIML skill).
    private let byWord: [String: [Int]]
    /// Entries without literals (`*`, `* *`), which any query may match.
    private let wildcardOnly: [Int]
    private let fetcher: any SkillDataFetcher
    private let scripts: (any ScriptRunner)?
    private let logger: Logger

    init(skills: [Skill], fetcher: any SkillDataFetcher, scripts: (any ScriptRunner)?, logger: Logger) {
        self.skills = skills
        self.fetcher = fetcher
        self.scripts = scripts
        self.logger = logger
        var entries: [Entry] = []
        entries.reserveCapacity(
            skills.reduce(0) { total, skill in
                total + skill.intents.reduce(0) { $0 + $1.compiledPatterns.count }
            })
        for (skillIndex, skill) in skills.enumerated() {
            for (intentIndex, intent) in skill.intents.enumerated() {
                for pattern in intent.compiledPatterns {
                    entries.append(Entry(skill: skillIndex, intent: intentIndex, pattern: pattern))
                }
            }
        }
        self.entries = entries
        var byWord: [String: [Int]] = [:]
        var wildcardOnly: [Int] = []
        for (index, entry) in entries.enumerated() {
            // The longest literal stands in for the rarest: counting every word first cost a
            // third of a cold start with 58,000 patterns, for lists hardly shorter.
            if let longest = entry.pattern.literals.max(by: { $0.utf8.count < $1.utf8.count }) {
                byWord[longest, default: []].append(index)
            } else {
                wildcardOnly.append(index)
            }
        }
        self.byWord = byWord
        self.wildcardOnly = wildcardOnly
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
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: Self.matchBudget)
        // Best match per intent, keyed by (skill, intent); order keeps load order for ties.
        var best: [Int: (rank: MatchRank, order: Int, skill: Int, intent: Int, captures: [String])] =
            [:]
        var indexes = wildcardOnly
        for word in wordSet { indexes += byWord[word] ?? [] }
        indexes.sort()
        for (checked, order) in indexes.enumerated() {
            let entry = entries[order]
            guard entry.pattern.literals.allSatisfy(wordSet.contains) else { continue }
            if checked % 256 == 255, clock.now > deadline {
                logger.warning("matching \"\(words.prefix(12).joined(separator: " "))\" ran out of time; using the best so far")
                break
            }
            guard let captures = entry.pattern.match(words) else { continue }
            let intent = skills[entry.skill].intents[entry.intent]
            let rank = MatchRank(
                prior: intent.prior, size: intent.susiSize, inference: intent.inferenceScore,
                literals: entry.pattern.literals.count,
                literalCharacters: entry.pattern.literalCharacters,
                wildcards: entry.pattern.wildcardCount,
                capturedWords: words.count - entry.pattern.literals.count,
                skillIntents: skills[entry.skill].intents.count)
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
    func respond(
        words: [String], context: BrainContext, now: Date, pick: (Int) -> Int, depth: Int = 0,
        fetchDeadline: ContinuousClock.Instant? = nil
    ) -> Outcome? {
        let normalized = words.joined(separator: " ")
        let budget = fetcher.answerBudget
        let deadline =
            fetchDeadline ?? (budget.isFinite ? ContinuousClock.now.advanced(by: .milliseconds(Int(budget * 1000))) : nil)
        for candidate in candidates(for: words) {
            let skill = skills[candidate.skill]
            let intent = skill.intents[candidate.intent]
            if let outcome = evaluate(
                skill: skill, intent: intent, captures: [normalized] + candidate.captures,
                context: context, now: now, pick: pick, depth: depth, fetchDeadline: deadline),
                // A catch-all that only stores (`*` answering `^$1$^>_x`) would swallow every
                // query in silence; the next candidate (a real fallback) answers instead.
                !(outcome.actions.isEmpty && intent.compiledPatterns.contains(where: \.isCatchAll))
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
        pick: (Int) -> Int, depth: Int, fetchDeadline: ContinuousClock.Instant?
    ) -> Outcome? {
        var rows: [[String: JSONValue]] = []
        var fromURL = false
        // Values assigned earlier in this answer count before the conversation's memory.
        var assigned: [String: String] = [:]
        let plainResolve = { (name: String) in
            Self.resolve(name, captures: captures, row: nil, context: context, now: now)
        }
        if let console = intent.console {
            if let url = console.url {
                guard let address = url.render(escape: Self.percentEncode, plainResolve) else { return nil }
                var timeout = Double.infinity
                if let fetchDeadline {
                    timeout = (fetchDeadline - ContinuousClock.now).seconds
                    guard timeout > 0.05 else {
                        logger.debug("\(skill.id):\(intent.line): no time left in this answer to fetch")
                        return nil
                    }
                }
                guard let fetched = fetchRows(address, timeout: timeout, path: console.path, skill: skill, intent: intent)
                else { return nil }
                rows = fetched
                fromURL = true
            } else if let function = console.function {
                guard let argument = console.argument.render(plainResolve),
                    let row = BuiltinFunctions.call(function, argument: argument, context: context)
                else { return nil }
                rows = [row]
            } else if let inline = console.data {
                guard let selected = console.path.select(in: .array(inline)) else { return nil }
                rows = Self.rows(of: selected)
                fromURL = true
            }
        }
        if let script = intent.script {
            guard let scripts, let source = script.script.render(plainResolve) else { return nil }
            do {
                rows = [["object": .string(try scripts.run(source))]]
            } catch {
                logger.warning("\(skill.id):\(intent.line): \(error.message)")
                return nil
            }
        }
        let row = rows.first
        let resolve = { (name: String) -> String? in
            if name.hasPrefix("_") {
                let key = Self.expandCaptures(in: name, captures)
                return assigned[key] ?? context.memory?.value(key)
            }
            return Self.resolve(name, captures: captures, row: row, context: context, now: now)
                ?? assigned[name]
        }

        var actions: [ChatAction] = []
        var assignments: [AnswerSyntax.Assignment] = []
        for line in intent.spokenLines {
            guard let rendered = Self.render(line, pick: pick, resolve) else { return nil }
            guard
                let reflected = reflect(
                    rendered, context: context, now: now, pick: pick, depth: depth, fetchDeadline: fetchDeadline)
            else {
                return nil
            }
            let (text, made) = AnswerSyntax.applyAssignments(reflected.text)
            assignments += reflected.assignments + made
            for assignment in reflected.assignments + made { assigned[assignment.name] = assignment.value }
            guard !text.isEmpty else { continue }
            // Whatever skill syntax is still left (an assignment to an unresolved name, a
            // stray quote) must not be spoken: this intent cannot answer.
            guard !AnswerSyntax.containsSkillSyntax(text) else {
                logger.warning("\(skill.id):\(intent.line): answer still holds skill syntax; not spoken")
                return nil
            }
            actions.append(.answer(AnswerAction(expression: text, language: context.language)))
        }
        if let template = intent.console?.actionsTemplate {
            guard let json = template.render(escape: JSONValue.escape, resolve),
                let extra = try? JSONDecoder().decode([ChatAction].self, from: Data(json.utf8))
            else { return nil }
            actions += extra
        }
        // An answer that only stores (`^yes^>_agreed`) still answers; nothing is spoken.
        guard !actions.isEmpty || !assignments.isEmpty else { return nil }
        var data = rows
        if !fromURL {
            // As SUSI does, plain answers carry the captures as a row ("0" is the whole query).
            var captureRow: [String: JSONValue] = [:]
            for (index, capture) in captures.enumerated() { captureRow[String(index)] = .string(capture) }
            data = [captureRow.merging(row ?? [:]) { _, computed in computed }]
        }
        return Outcome(skill: skill, intent: intent, actions: actions, data: data, assignments: assignments)
    }

    /// The text with each `` `query` `` replaced by the brain's own spoken answer to it, as
    /// SUSI's reflection does; nil when one gets no answer or they nest too deep.
    private func reflect(
        _ text: String, context: BrainContext, now: Date, pick: (Int) -> Int, depth: Int,
        fetchDeadline: ContinuousClock.Instant?
    ) -> (text: String, assignments: [AnswerSyntax.Assignment])? {
        guard text.contains("`") else { return (text, []) }
        guard depth < Self.maxReflectionDepth else {
            logger.warning("reflection nested deeper than \(Self.maxReflectionDepth); not answering")
            return nil
        }
        var output = ""
        var assignments: [AnswerSyntax.Assignment] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "`") {
            output += rest[..<open]
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "`") else { return nil }
            let words = QueryNormalizer.words(String(rest[afterOpen..<close]))
            guard !words.isEmpty,
                let inner = respond(
                    words: words, context: context, now: now, pick: pick, depth: depth + 1, fetchDeadline: fetchDeadline)
            else { return nil }
            output += inner.actions.compactMap { action -> String? in
                guard case .answer(let answer) = action, !answer.isPlanned else { return nil }
                return answer.expression
            }.joined(separator: " ")
            assignments += inner.assignments
            rest = rest[rest.index(after: close)...]
        }
        output += rest
        return (output, assignments)
    }

    /// `_$1$` with the captures put in: the memory name `$_$1$$` refers to.
    private static func expandCaptures(in name: String, _ captures: [String]) -> String {
        guard name.contains("$") else { return name }
        var output = ""
        var parts = name.split(separator: "$", omittingEmptySubsequences: false).makeIterator()
        var inside = false
        while let part = parts.next() {
            if inside, let index = Int(part), captures.indices.contains(index) {
                output += captures[index]
            } else {
                output += part
            }
            inside.toggle()
        }
        return output
    }

    private static func rows(of selected: JSONValue) -> [[String: JSONValue]] {
        switch selected {
        case .array(let elements): return elements.map { $0.objectValue ?? ["object": $0] }
        case .object(let members): return [members]
        case .null: return []
        default: return [["object": selected]]
        }
    }

    private func fetchRows(_ address: String, timeout: Double, path: JSONPath, skill: Skill, intent: SkillIntent)
        -> [[String: JSONValue]]?
    {
        let body: Data
        do {
            body = try timeout.isFinite ? fetcher.fetchJSON(url: address, timeout: timeout) : fetcher.fetchJSON(url: address)
        } catch {
            logger.warning("\(skill.id):\(intent.line): \(error.message)")
            return nil
        }
        guard let json = (try? JSONValue.parse(body)) ?? LenientJSON.parse(String(decoding: body, as: UTF8.self))
        else {
            logger.warning("\(skill.id):\(intent.line): console data is not JSON")
            return nil
        }
        guard let selected = path.select(in: json) else {
            logger.debug("\(skill.id):\(intent.line): console path selects nothing")
            return nil
        }
        let rows = Self.rows(of: selected)
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
