import Foundation

/// How well the built-in brain runs a tree of skills written for SUSI.AI (a checkout of
/// fossasia/susi_skill_data): what loads, and whether the skills' own examples answer.
///
/// An example is valid when it is not an unedited CMS placeholder (`<The question ...>`) and
/// matches one of its own intent's patterns (otherwise it fails in SUSI too). Offline
/// examples (no console `url`) must be answered by their own intent and contain their
/// `!expect`; examples of intents that fetch data must reach their own intent (`Brain.match`,
/// nothing fetched). Examples run in file order with one conversation memory per file, as a
/// user trying them in turn would.
public struct SkillCompatibilityReport: Sendable {
    /// `*.txt` files found.
    public var files = 0
    /// Files with at least one usable intent.
    public var filesLoaded = 0
    /// Files that could not be read at all (binary, not UTF-8).
    public var filesRejected = 0
    /// Intents loaded, over all files.
    public var intents = 0
    /// Blocks skipped with a warning.
    public var blocksSkipped = 0
    /// Examples that are CMS placeholders or do not match their own intent.
    public var invalidExamples = 0
    /// Valid examples of intents that answer offline.
    public var offlineExamples = 0
    /// How many of `offlineExamples` passed (all files loaded together).
    public var offlinePassed = 0
    /// Valid examples of intents that fetch data.
    public var networkExamples = 0
    /// How many of `networkExamples` reached their own intent (all files together).
    public var networkReached = 0
    /// One cold load of the whole tree, in milliseconds.
    public var loadMilliseconds = 0.0
    /// Median answer time over every offline example query (nothing fetched), in milliseconds.
    public var answerMedian = 0.0
    /// The 95th percentile of the same.
    public var answerP95 = 0.0
    /// The slowest answer.
    public var answerMax = 0.0
    /// Answers that still held skill syntax (`^…^>_x`, `$x$`, backquotes); must stay 0.
    public var leakedSyntax = 0
    /// `file:line: query: problem` for every failing valid example.
    public var failures: [String] = []
    /// Offline examples passing with each skill file loaded alone (as SUSI's skill editor
    /// tries a skill), so identical patterns in other files cannot take them.
    public var aloneOfflinePassed = 0
    /// Network examples reaching their own intent with each file alone.
    public var aloneNetworkReached = 0
    /// `file:line: query` for every example not counted: a CMS placeholder, or one matching
    /// none of its own intent's patterns.
    public var invalid: [String] = []
    /// `file:line: query: problem` for every valid example failing with its file alone.
    public var aloneFailures: [String] = []
    /// Offline examples (together) taken by a twin: an intent of another file with exactly
    /// the same patterns (a copied skill). No order can give both copies their own examples;
    /// SUSI, too, answers such a query from one of them.
    public var offlineTakenByTwin = 0
    /// Network examples (together) taken by a twin, likewise.
    public var networkTakenByTwin = 0
}

/// Runs the compatibility measurement (`susi skills compat`, bench/skills-compat.sh).
public enum SkillCompatibility {
    /// Loads `directory` as a skill-data tree for `language` and runs every example.
    /// `scripts` runs `!javascript:` intents (nil: they cannot answer).
    public static func run(directory: String, language: String = "en", scripts: (any ScriptRunner)? = nil)
        throws(BrainError) -> SkillCompatibilityReport
    {
        var report = SkillCompatibilityReport()
        let clock = ContinuousClock()
        let started = clock.now
        let brain = try Brain(
            directory: directory, options: .skillData(language: language), scripts: scripts, pick: { _ in 0 })
        report.loadMilliseconds = (clock.now - started).milliseconds
        report.files = try Brain.skillFiles(in: directory, options: .skillData(language: language)).count
        report.filesLoaded = brain.skills.filter { !$0.intents.isEmpty }.count
        report.filesRejected = brain.diagnostics.filter { $0.severity == .error }.count
        report.intents = brain.skills.reduce(0) { $0 + $1.intents.count }
        report.blocksSkipped = brain.diagnostics.filter { $0.severity == .warning && $0.message.contains("skip") }.count

        var timings: [Double] = []
        var skillsByID: [String: Skill] = [:]
        for skill in brain.skills { skillsByID[skill.id] = skill }
        // Whether `skill:line` names an intent of another file with the same patterns.
        let isTwin = { (own: SkillIntent, ownSkill: Skill, other: String?) -> Bool in
            guard let other, let colon = other.lastIndex(of: ":"), let line = Int(other[other.index(after: colon)...]),
                let otherSkill = skillsByID[String(other[..<colon])], otherSkill.id != ownSkill.id,
                let otherIntent = otherSkill.intents.first(where: { $0.line == line })
            else { return false }
            return Set(otherIntent.compiledPatterns.map(\.tokens)) == Set(own.compiledPatterns.map(\.tokens))
        }
        for skill in brain.skills {
            let memory = SkillMemory()
            var context = BrainContext.examples
            context.memory = memory
            let alone = Brain(
                skills: [skill], diagnostics: [], fetcher: OfflineSkillDataFetcher(), scripts: scripts, pick: { _ in 0 },
                logger: .silent)
            var aloneContext = BrainContext.examples
            aloneContext.memory = SkillMemory()
            for intent in skill.intents {
                for example in intent.examples {
                    let words = QueryNormalizer.words(example.query)
                    guard !isPlaceholder(example.query), intent.compiledPatterns.contains(where: { $0.match(words) != nil })
                    else {
                        report.invalidExamples += 1
                        report.invalid.append("\(skill.file):\(example.line): \"\(example.query)\"")
                        continue
                    }
                    let place = "\(skill.file):\(example.line): \"\(example.query)\""
                    if intent.fetchesData {
                        report.networkExamples += 1
                        // The intent, whatever else the match reports (words left unchecked).
                        let isOwn = { (match: SkillMatch?) in match?.skill == skill.id && match?.line == intent.line }
                        let aloneFound = alone.match(example.query, context: aloneContext)
                        if isOwn(aloneFound) {
                            report.aloneNetworkReached += 1
                        } else {
                            let by = aloneFound.map { "\($0.skill):\($0.line)" } ?? "nothing"
                            report.aloneFailures.append("\(place): network intent not reached (matched \(by))")
                        }
                        let found = brain.match(example.query, context: context)
                        if isOwn(found) {
                            report.networkReached += 1
                        } else {
                            let by = found.map { "\($0.skill):\($0.line)" } ?? "nothing"
                            let twin = isTwin(intent, skill, found.map { "\($0.skill):\($0.line)" })
                            if twin { report.networkTakenByTwin += 1 }
                            report.failures.append(
                                "\(place): network intent not reached (matched \(by)\(twin ? ", a twin" : ""))")
                        }
                        continue
                    }
                    report.offlineExamples += 1
                    let expect = example.expect.flatMap { isPlaceholder($0) ? nil : $0 }
                    let before = clock.now
                    let result = brain.check(
                        SkillExample(query: example.query, expect: expect, line: example.line), skill: skill,
                        intent: intent, context: context)
                    timings.append((clock.now - before).milliseconds)
                    let aloneResult = alone.check(
                        SkillExample(query: example.query, expect: expect, line: example.line), skill: skill,
                        intent: intent, context: aloneContext)
                    if aloneResult.passed {
                        report.aloneOfflinePassed += 1
                    } else {
                        report.aloneFailures.append("\(place): \(aloneResult.problem ?? "")")
                    }
                    if AnswerSyntax.containsSkillSyntax(result.answer) { report.leakedSyntax += 1 }
                    if result.passed {
                        report.offlinePassed += 1
                    } else {
                        let twin = isTwin(intent, skill, result.answeredBy)
                        if twin { report.offlineTakenByTwin += 1 }
                        report.failures.append("\(place): \(result.problem ?? "")\(twin ? " (a twin)" : "")")
                    }
                }
            }
        }
        timings.sort()
        if !timings.isEmpty {
            report.answerMedian = timings[timings.count / 2]
            report.answerP95 = timings[min(timings.count - 1, timings.count * 95 / 100)]
            report.answerMax = timings[timings.count - 1]
        }
        return report
    }

    /// An unedited CMS placeholder such as `<The question that should be shown ...>`.
    static func isPlaceholder(_ text: String) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return trimmed.hasPrefix("<") && trimmed.hasSuffix(">")
    }
}
