import SusiBrain

/// `susi skills bench`: how long loading the skills and answering their examples takes, in
/// process, with the fetcher the speaker uses.
public struct SkillsBenchmark: Sendable {
    /// Skill files loaded.
    public var skillCount: Int
    /// Example queries answered per round.
    public var queryCount: Int
    /// Loading every skill, in milliseconds (20 runs).
    public var loadMedian: Double
    public var loadP95: Double
    /// Answering one query, in milliseconds (every example, 20 rounds).
    public var answerMedian: Double
    public var answerP95: Double
    /// Answers over the whole answering time.
    public var queriesPerSecond: Double
    /// Answers timed.
    public var answerCount: Int

    /// Loads the skills of `directory` `rounds` times, then answers every example `rounds` times.
    public static func run(directory: String, rounds: Int = 20) throws -> SkillsBenchmark {
        var loads: [Double] = []
        var brain = try Brain(directory: directory, fetcher: HTTPSkillDataFetcher())
        for _ in 0..<rounds {
            let start = ContinuousClock.now
            brain = try Brain(directory: directory, fetcher: HTTPSkillDataFetcher())
            loads.append(milliseconds(since: start))
        }
        let queries = brain.skills.flatMap { $0.intents.flatMap { $0.examples.map(\.query) } }
        var answers: [Double] = []
        let total = ContinuousClock.now
        for _ in 0..<rounds {
            for query in queries {
                let start = ContinuousClock.now
                _ = try? brain.answer(query, context: .examples)
                answers.append(milliseconds(since: start))
            }
        }
        let seconds = milliseconds(since: total) / 1000
        return SkillsBenchmark(
            skillCount: brain.skills.count, queryCount: queries.count, loadMedian: percentile(loads, 0.5),
            loadP95: percentile(loads, 0.95), answerMedian: percentile(answers, 0.5), answerP95: percentile(answers, 0.95),
            queriesPerSecond: Double(answers.count) / seconds, answerCount: answers.count)
    }

    private static func milliseconds(since start: ContinuousClock.Instant) -> Double {
        (ContinuousClock.now - start).milliseconds
    }

    private static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction + 0.5))]
    }
}
