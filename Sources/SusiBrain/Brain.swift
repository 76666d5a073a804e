import Foundation
import SusiCore
import SusiModel
import Synchronization

/// The built-in, offline SUSI brain: skills in SUSI's skill language, answered in the
/// chat.json shape.
///
/// Load once (`init(directory:)` reads every `*.txt` file; malformed files are reported in
/// `diagnostics` and skipped), then call `answer(_:context:)` from any thread: the brain is
/// immutable after loading. Answering is synchronous; an intent with a console `url` fetches
/// it on the calling thread, blocking it for up to the fetcher's timeout (the bundled skills
/// fetch nothing). Call it off Swift's cooperative pool when a fetcher may block.
public final class Brain: Sendable {
    /// Picks one of `count` answer alternatives; returns an index in `0..<count`.
    public typealias AnswerPicker = @Sendable (_ count: Int) -> Int

    /// The longest query accepted, in UTF-8 bytes.
    public static let maxQueryBytes = 10 * 1024

    /// The loaded skills, in load order (file name order for a directory).
    public let skills: [Skill]
    /// Problems found while loading; files with an `error` are not in `skills`.
    public let diagnostics: [SkillDiagnostic]

    private let interpreter: Interpreter
    private let pick: AnswerPicker
    private let logger: Logger

    /// Loads every `*.txt` skill file of `directory` (e.g. `models/skills`).
    ///
    /// Throws `brain-skills-unreadable` only when the directory itself cannot be listed; bad
    /// files are reported in `diagnostics` and skipped. `fetcher` serves console `url`s
    /// (default: none, offline; SusiSpeaker passes its libcurl fetcher); `scripts` runs
    /// `!javascript:` intents (default: none, so they cannot answer; see
    /// `ProcessScriptRunner`); `pick` chooses among random answers.
    public convenience init(
        directory: String,
        options: SkillLoadOptions = SkillLoadOptions(),
        fetcher: any SkillDataFetcher = OfflineSkillDataFetcher(),
        scripts: (any ScriptRunner)? = nil,
        pick: @escaping AnswerPicker = { Int.random(in: 0..<max(1, $0)) },
        logger: Logger = .silent
    ) throws(BrainError) {
        let names = try Self.skillFiles(in: directory, options: options)
        var sources: [SkillSource] = []
        var diagnostics: [SkillDiagnostic] = []
        var files: [(name: String, data: Data)] = []
        for name in names {
            let path = (directory as NSString).appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: path) else {
                diagnostics.append(
                    SkillDiagnostic(file: path, line: 0, severity: .error, message: "cannot read file"))
                continue
            }
            files.append((name, data))
        }
        let readFailures = diagnostics
        // The parsed skills of exactly these bytes, when a cache holds them.
        let cache = options.cacheDirectory.map {
            (SkillCache.path(for: directory, in: $0), SkillCache.key(files: files, options: options))
        }
        if let (path, key) = cache, let cached = SkillCache.load(path: path, key: key) {
            logger.debug("skills read from the cache \(path)")
            self.init(
                skills: cached.skills, diagnostics: diagnostics + cached.diagnostics, fetcher: fetcher,
                scripts: scripts, pick: pick, logger: logger)
            return
        }
        for (name, data) in files {
            let path = (directory as NSString).appendingPathComponent(name)
            let id = String(name.dropLast(4))
            switch SkillSource.decode(data) {
            case .success(let text):
                sources.append(SkillSource(id: id, file: path, text: text))
            case .failure(let failure):
                diagnostics.append(
                    SkillDiagnostic(
                        file: path, line: failure.line, severity: .error, message: failure.message))
            }
        }
        self.init(
            sources: sources, extraDiagnostics: diagnostics, options: options, fetcher: fetcher, scripts: scripts,
            pick: pick, logger: logger)
        if let (path, key) = cache {
            // Read failures are not content; they are found again on every start.
            let parsed = self.diagnostics.filter { !readFailures.contains($0) }
            SkillCache.save(path: path, key: key, skills: skills, diagnostics: parsed)
        }
    }

    /// The skill files of `directory` as paths relative to it, sorted: `*.txt` directly in it,
    /// or anywhere below it in `options.language` folders for a skill-data tree.
    static func skillFiles(in directory: String, options: SkillLoadOptions) throws(BrainError) -> [String] {
        let names: [String]
        do {
            names =
                options.recursive
                ? try FileManager.default.subpathsOfDirectory(atPath: directory)
                : try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw BrainError(.skillsUnreadable, "cannot read skills directory \(directory)")
        }
        return names.filter { name in
            let parts = name.split(separator: "/")
            // A skill-data tree has files named just ".txt", which SUSI loads; hidden folders
            // (".git") are never skills.
            guard let file = parts.last, file.hasSuffix(".txt"), !parts.dropLast().contains(where: { $0.hasPrefix(".") }),
                options.recursive || !file.hasPrefix(".")
            else {
                return false
            }
            guard let language = options.language else { return true }
            return parts.count >= 2 && parts[parts.count - 2] == language
        }.sorted()
    }

    /// Loads skills from texts held in memory, `(id, text)` pairs in order; for tests and for
    /// embedding skills without files. The id doubles as the file name in diagnostics.
    public convenience init(
        texts: [(id: String, text: String)],
        options: SkillLoadOptions = SkillLoadOptions(),
        fetcher: any SkillDataFetcher = OfflineSkillDataFetcher(),
        scripts: (any ScriptRunner)? = nil,
        pick: @escaping AnswerPicker = { Int.random(in: 0..<max(1, $0)) },
        logger: Logger = .silent
    ) {
        let sources = texts.map { SkillSource(id: $0.id, file: $0.id, text: $0.text) }
        self.init(
            sources: sources, extraDiagnostics: [], options: options, fetcher: fetcher, scripts: scripts, pick: pick,
            logger: logger)
    }

    private convenience init(
        sources: [SkillSource], extraDiagnostics: [SkillDiagnostic], options: SkillLoadOptions,
        fetcher: any SkillDataFetcher, scripts: (any ScriptRunner)?, pick: @escaping AnswerPicker, logger: Logger
    ) {
        var skills: [Skill] = []
        var diagnostics = extraDiagnostics
        let parserOptions = SkillParser.Options(refuseCatchAll: options.refuseCatchAll)
        for source in sources {
            let output = SkillParser.parse(text: source.text, file: source.file, id: source.id, options: parserOptions)
            diagnostics += output.diagnostics
            if let skill = output.skill { skills.append(skill) }
        }
        self.init(
            skills: skills, diagnostics: diagnostics, fetcher: fetcher, scripts: scripts, pick: pick, logger: logger)
    }

    /// A brain over skills already read (one skill alone, for `SkillCompatibility`).
    init(
        skills: [Skill], diagnostics: [SkillDiagnostic], fetcher: any SkillDataFetcher,
        scripts: (any ScriptRunner)? = nil, pick: @escaping AnswerPicker, logger: Logger
    ) {
        // A skipped block is routine in community skills (`susi skills lint` lists them), so
        // it is logged as info; an unreadable file is an error.
        for diagnostic in diagnostics {
            logger.log(diagnostic.severity == .error ? .error : .info, diagnostic.description)
        }
        self.skills = skills
        self.diagnostics = diagnostics
        self.pick = pick
        self.logger = logger
        interpreter = Interpreter(skills: skills, fetcher: fetcher, scripts: scripts, logger: logger)
    }

    /// Brains kept until the process ends (`keepUntilExit`).
    private static let kept = Mutex<[Brain]>([])

    /// Keeps this brain until the process ends, for a one-shot command (`susi ask`): freeing
    /// a large skill set piece by piece on the way out cost a quarter of a cold start (60 of
    /// 240 ms CPU with 58,000 intents). Not for long-running processes that load many brains.
    public func keepUntilExit() {
        Self.kept.withLock { $0.append(self) }
    }

    /// The number of `!example` lines over all skills.
    public var exampleCount: Int { skills.reduce(0) { $0 + $1.exampleCount } }

    /// Answers one query in the chat.json shape.
    ///
    /// A query no skill can answer gets a reply with no answers (SUSI's "no answer"); the
    /// bundled skills end with a catch-all, so with them that does not happen. Throws for
    /// queries that cannot be asked: empty (`brain-empty-query`), over `maxQueryBytes`
    /// (`brain-query-too-long`), or holding control characters or undecodable bytes
    /// (`brain-binary-query`). May block on console fetches (see the type's documentation).
    public func answer(_ query: String, context: BrainContext = BrainContext()) throws(BrainError)
        -> ChatResponse
    {
        try respond(query, context: context, pick: pick)
    }

    /// The skill and intent that would answer `query`, found without fetching console URLs or
    /// rendering answers (see `SkillMatch`); nil when no skill matches or the query cannot be
    /// asked. Cheap and never blocking: the endpointer asks it several times per pause.
    public func match(_ query: String, context: BrainContext = BrainContext()) -> SkillMatch? {
        guard let trimmed = try? Self.validate(query) else { return nil }
        let words = politely(QueryNormalizer.words(trimmed), context: context, now: context.now ?? Date())
        guard !words.isEmpty,
            let found = interpreter.match(words: words, context: context, now: context.now ?? Date())
        else { return nil }
        // A built-in console function has checked what the wildcards took (numbers, a volume).
        let checked = found.intent.console.map { $0.url == nil && $0.function != nil } ?? false
        let unchecked = checked ? 0 : found.captures.reduce(0) { $0 + $1.split(separator: " ").count }
        return SkillMatch(skill: found.skill.id, line: found.intent.line, uncheckedWords: unchecked)
    }

    /// Runs every `!example` through the brain in `context` and checks that the example's own
    /// intent answered and that the answer contains the `!expect` text (see `ExampleResult`),
    /// with `$1$`... in the expect filled from the query. Random alternatives are tried in
    /// turn, the first first; one holding the expect is enough.
    public func runExamples(context: BrainContext = .examples) -> [ExampleResult] {
        var results: [ExampleResult] = []
        for skill in skills {
            for intent in skill.intents {
                for example in intent.examples {
                    results.append(check(example, skill: skill, intent: intent, context: context))
                }
            }
        }
        return results
    }

    func check(
        _ example: SkillExample, skill: Skill, intent: SkillIntent, context: BrainContext
    ) -> ExampleResult {
        let expect = example.expect.map { Self.fillCaptures(in: $0, query: example.query, intent: intent) }
        let expectedBy = "\(skill.id):\(intent.line)"
        // SUSI answers with one alternative at random: the example passes when one of them
        // holds the expect. Alternative `n` of every line is tried (the last where a line has
        // fewer), the first alternatives first.
        let alternatives =
            intent.spokenLines.map { line in
                line.map { choice in
                    if case .conditional(_, _, let then, let otherwise) = choice { return max(then.count, otherwise.count) }
                    return 1
                }.reduce(line.count, max)
            }.max() ?? 1
        func attempt(_ alternative: Int) -> ExampleResult {
            let reply: ChatResponse
            do {
                reply = try respond(example.query, context: context, pick: { min(alternative, max(0, $0 - 1)) })
            } catch {
                return ExampleResult(
                    skill: skill.id, file: skill.file, line: example.line, query: example.query,
                    expect: example.expect, answer: "", answeredBy: nil, problem: error.message)
            }
            let answer = ExampleResult.describe(reply)
            let answeredBy = reply.answers.first.flatMap { answer in
                answer.skills.first.map { "\($0):\(answer.metadata.extra["line"]?.intValue ?? 0)" }
            }
            var problem: String?
            if answeredBy != expectedBy {
                problem = "answered by \(answeredBy ?? "nothing") instead of \(expectedBy)"
            } else if let expect, !answer.lowercased().contains(expect.lowercased()) {
                problem = "answer does not contain \"\(expect)\""
            }
            return ExampleResult(
                skill: skill.id, file: skill.file, line: example.line, query: example.query,
                expect: example.expect, answer: answer, answeredBy: answeredBy, problem: problem)
        }
        let first = attempt(0)
        // Only the text is retried: an example that another intent took fails as it is.
        guard !first.passed, first.answeredBy == expectedBy, alternatives > 1 else { return first }
        for alternative in 1..<alternatives {
            let other = attempt(alternative)
            if other.passed { return other }
        }
        return first
    }

    /// The expect with `$1$`, `$2$`, ... replaced by what the example query gives the
    /// intent's wildcards: authors copy the answer line, placeholders and all, into the
    /// `!expect:` (`The tangens from $1$ degrees equals ...`). Other placeholders stay.
    static func fillCaptures(in expect: String, query: String, intent: SkillIntent) -> String {
        guard expect.contains("$") else { return expect }
        let words = QueryNormalizer.words(query)
        guard let captures = intent.compiledPatterns.lazy.compactMap({ $0.match(words) }).first else { return expect }
        var filled = expect
        for (index, capture) in captures.enumerated().reversed() {
            filled = filled.replacingOccurrences(of: "$\(index + 1)$", with: capture)
        }
        return filled
    }

    /// `words` without a "please" before or after the command ("add milk to my list please")
    /// when only the catch-all answers them as they are and a skill answers them without it;
    /// else `words` as they are, so a pattern that says "please" itself still matches.
    func politely(_ words: [String], context: BrainContext, now: Date) -> [String] {
        var plain = words[...]
        while plain.count > 1, plain.first == "please" { plain.removeFirst() }
        while plain.count > 1, plain.last == "please" { plain.removeLast() }
        guard plain.count < words.count else { return words }
        let catchAll = HybridRoutingPolicy.defaultCatchAllSkills
        if let asSaid = interpreter.match(words: words, context: context, now: now), !catchAll.contains(asSaid.skill.id) {
            return words
        }
        guard let polite = interpreter.match(words: Array(plain), context: context, now: now),
            !catchAll.contains(polite.skill.id)
        else { return words }
        return Array(plain)
    }

    private func respond(_ query: String, context: BrainContext, pick: (Int) -> Int)
        throws(BrainError) -> ChatResponse
    {
        let clock = ContinuousClock()
        let started = clock.now
        let queryDate = Date()
        let trimmed = try Self.validate(query)
        let now = context.now ?? queryDate
        let words = politely(QueryNormalizer.words(trimmed), context: context, now: now)
        guard !words.isEmpty else {
            throw BrainError(.emptyQuery, "the query has no words")
        }
        var answers: [ChatAnswer] = []
        if Self.forgetRequests.contains(words.joined(separator: " ")) {
            context.memory?.clear()
            answers.append(
                ChatAnswer(
                    data: [], metadata: ChatMetadata(count: 0),
                    actions: [.answer(AnswerAction(expression: Self.forgotten, language: context.language))],
                    skills: ["memory"]))
        } else if let outcome = interpreter.respond(words: words, context: context, now: now, pick: pick) {
            for assignment in outcome.assignments where assignment.name.hasPrefix("_") {
                context.memory?.set(assignment.name, assignment.value)
            }
            // The intent's line rides along in metadata so tools (and `skills test`) can tell
            // which intent answered; SUSI clients ignore members they do not know.
            let metadata = ChatMetadata(
                count: outcome.data.count, extra: ["line": .number(Double(outcome.intent.line))])
            answers.append(
                ChatAnswer(
                    data: outcome.data, metadata: metadata, actions: outcome.actions,
                    skills: [outcome.skill.id]))
        } else {
            logger.info("no skill answers \"\(words.joined(separator: " "))\"")
        }
        let milliseconds = Int((clock.now - started).milliseconds)
        return ChatResponse(
            query: trimmed,
            queryDate: ChatResponse.timestamp(queryDate),
            answerDate: ChatResponse.timestamp(Date()),
            answerTime: milliseconds,
            queryLanguage: context.language,
            session: ["identity": ["type": "host", "name": "127.0.0.1", "anonymous": true]],
            answers: answers, origin: .builtIn)
    }

    /// Queries that clear the conversation's memory (normalised).
    static let forgetRequests: Set<String> = [
        "forget what i told you", "forget everything i told you", "forget everything", "forget what you know",
        "forget what you know about me", "forget all that",
    ]
    /// The answer to a forget request.
    static let forgotten = "OK, I have forgotten what you told me."

    /// The query without surrounding blanks, or the reason it cannot be asked.
    static func validate(_ query: String) throws(BrainError) -> String {
        guard query.utf8.count <= maxQueryBytes else {
            throw BrainError(
                .queryTooLong,
                "the query is \(query.utf8.count) bytes; at most \(maxQueryBytes) are accepted")
        }
        for scalar in query.unicodeScalars {
            let isControl =
                scalar.properties.generalCategory == .control && !["\t", "\n", "\r"].contains(scalar)
            if isControl || scalar == "\u{FFFD}" {
                throw BrainError(
                    .binaryQuery, "the query holds binary data (control characters or invalid UTF-8)"
                )
            }
        }
        let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            throw BrainError(.emptyQuery, "the query is empty")
        }
        return trimmed
    }
}

/// The intent a query matches, as `Brain.match` finds it.
///
/// Whether it really answers can still depend on what `answer` does beyond matching: a
/// console URL that fails to fetch, or an answer missing a value, falls through to the next
/// intent there.
public struct SkillMatch: Sendable, Equatable {
    /// The skill's id (its file name without `.txt`), as in a reply's `skills`.
    public var skill: String
    /// The line of the intent's patterns in the skill file.
    public var line: Int
    /// The words the pattern's wildcards took that no skill function checked
    /// (`CommandUnderstanding.uncheckedWords`).
    public var uncheckedWords: Int

    public init(skill: String, line: Int, uncheckedWords: Int = 0) {
        self.skill = skill
        self.line = line
        self.uncheckedWords = uncheckedWords
    }
}

/// How skill files are found and read.
public struct SkillLoadOptions: Sendable {
    /// Look in subfolders too (a checkout of fossasia/susi_skill_data); ids are then paths
    /// relative to the directory, without `.txt`.
    public var recursive: Bool
    /// With `recursive`, only files in folders of this name (`en`); nil for all.
    public var language: String?
    /// Skip lone-`*` catch-all patterns, as SUSI does for skills from its skill-data tree.
    public var refuseCatchAll: Bool
    /// Where to keep a parsed copy of the skills, keyed by their content (see `SkillCache`);
    /// nil reads every file every time.
    public var cacheDirectory: String?

    /// The options for the bundled skills: one folder, catch-alls allowed, no cache.
    public init(
        recursive: Bool = false, language: String? = nil, refuseCatchAll: Bool = false, cacheDirectory: String? = nil
    ) {
        self.recursive = recursive
        self.language = language
        self.refuseCatchAll = refuseCatchAll
        self.cacheDirectory = cacheDirectory
    }

    /// The per-user cache folder: `$XDG_CACHE_HOME/susi`, else `$HOME/.cache/susi`; nil
    /// without either.
    public static func defaultCacheDirectory(environment: [String: String]) -> String? {
        if let base = environment["XDG_CACHE_HOME"], base.hasPrefix("/") { return base + "/susi" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.cache/susi" }
        return nil
    }

    /// A skill-data tree as SUSI reads it: every `language` folder below, catch-alls refused.
    public static func skillData(language: String = "en") -> SkillLoadOptions {
        SkillLoadOptions(recursive: true, language: language, refuseCatchAll: true)
    }
}

/// One skill file's text before parsing.
struct SkillSource {
    let id: String
    let file: String
    let text: String

    /// Strict UTF-8 without NUL bytes; a failure names the line of the first bad byte.
    static func decode(_ data: Data) -> Result<String, SourceFailure> {
        if let nul = data.firstIndex(of: 0) {
            let line = data[..<nul].filter { $0 == 10 }.count + 1
            return .failure(SourceFailure(line: line, message: "binary file (NUL byte)"))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            return .failure(SourceFailure(line: 1, message: "not valid UTF-8"))
        }
        return .success(text)
    }

    struct SourceFailure: Error {
        let line: Int
        let message: String
    }
}
