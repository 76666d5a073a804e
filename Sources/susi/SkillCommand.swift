import Foundation
import SusiCore
import SusiNet

/// `susi skill feedback|ratings|rate|review|report SKILL ...`: the SUSI apps' skill
/// features against the skill CMS of `brain.server`.
enum SkillCommand: Command {
    static let name = "skill"
    static let summary = "a SUSI skill's reviews, ratings; rate, review or report it"
    static let usage = """
          susi skill feedback SKILL [--all] [--json]   the newest reviews (three unless --all)
          susi skill ratings SKILL                     the five-star rating chart
          susi skill rate SKILL STARS                  rate 1-5 stars (needs `susi login`)
          susi skill review SKILL TEXT                 post a review (needs `susi login`)
          susi skill report SKILL --reason TEXT        report the skill (needs `susi login`)
        options for every action:
          --group G        the skill's group, e.g. Knowledge (or write SKILL as GROUP/NAME)
          --model M        default general
          --language L     default brain.language from the config
        """

    /// Reviews shown without `--all`.
    static let defaultReviewCount = 3

    static func run(_ arguments: inout ArgumentParser, _ context: CommandContext) throws {
        let action = try arguments.required("an action (feedback, ratings, rate, review or report)")
        let model = try arguments.option("--model") ?? "general"
        let group = try arguments.option("--group")
        let languageOption = try arguments.option("--language")
        let config = try context.store.load()
        let cms = SkillCMSClient(
            server: config.brain.server, http: CurlHTTPClient(stage: .brain, logger: context.logger),
            timeout: max(config.brain.timeoutSeconds, 10), logger: context.logger)
        func skill() throws -> SkillReference {
            let text = try arguments.required("SKILL")
            var parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            let name = parts.removeLast()
            let groupName = parts.isEmpty ? group : parts.joined(separator: "/")
            guard !name.isEmpty else { throw UsageError("the skill name is empty") }
            guard let groupName, !groupName.isEmpty else {
                throw UsageError("name the skill's group with --group G or as GROUP/\(name)")
            }
            return SkillReference(
                model: model, group: groupName, language: languageOption ?? config.brain.language, name: name)
        }
        func token() throws -> AccountToken {
            try AccountStore(configStore: context.store).requireToken(for: config.brain.server)
        }

        switch action {
        case "feedback", "reviews":
            let all = arguments.flag("--all")
            let json = arguments.flag("--json")
            let target = try skill()
            try arguments.finish()
            let reviews = try explained(target, "read the reviews of") { try cms.reviews(of: target) }
            let shown = all ? reviews : Array(reviews.prefix(defaultReviewCount))
            if json {
                context.print(try reviewsJSON(target, reviews: shown, total: reviews.count))
            } else {
                // Reviews are other people's text: their escape codes must not drive this terminal.
                for line in reviewLines(target, reviews: shown, total: reviews.count) {
                    context.print(ControlCharacters.strippedForTerminal(line))
                }
            }
        case "ratings":
            let target = try skill()
            try arguments.finish()
            let ratings = try explained(target, "read the ratings of") { try cms.ratings(of: target) }
            context.print("Ratings of \(target)")
            for line in ratings.chartLines() { context.print(line) }
            if let login = AccountStore(configStore: context.store).token(for: config.brain.server) {
                let own = try explained(target, "read your rating of") { try cms.ownRating(of: target, token: login) }
                context.print(own.map { "Your rating: \($0) star\($0 == 1 ? "" : "s")" } ?? "You have not rated it yet.")
            }
        case "rate":
            let target = try skill()
            let text = try arguments.required("STARS (1-5)")
            try arguments.finish()
            guard let stars = Int(text), (1...5).contains(stars) else {
                throw UsageError("STARS must be a whole number from 1 to 5, not '\(text)'")
            }
            let login = try token()
            let result = try explained(target, "rate") { try cms.rate(target, stars: stars, token: login) }
            var line = "Rated \(target.name) \(stars) star\(stars == 1 ? "" : "s")"
            if let ratings = result.ratings, ratings.total > 0 {
                line += "; it now averages \(String(format: "%.1f", ratings.average)) from \(ratings.total) ratings"
            }
            context.print(line + ".")
        case "review":
            let target = try skill()
            let text = try arguments.required("TEXT")
            try arguments.finish()
            let login = try token()
            _ = try explained(target, "review") { try cms.review(target, text: text, token: login) }
            context.print("Posted your review of \(target.name).")
        case "report":
            let reason = try arguments.option("--reason")
            let target = try skill()
            try arguments.finish()
            guard let reason, !reason.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw UsageError("report needs --reason TEXT")
            }
            let login = try token()
            _ = try explained(target, "report") { try cms.report(target, reason: reason, token: login) }
            context.print("Reported \(target.name); thank you.")
        default:
            throw UsageError("unknown action '\(action)'; expected feedback, ratings, rate, review or report")
        }
    }

    /// The text listing: a header, each review (reviewer, day, indented text), and how many
    /// more `--all` would show. Reviewers are never shown by full address.
    static func reviewLines(_ skill: SkillReference, reviews: [SkillReview], total: Int) -> [String] {
        guard total > 0 else { return ["\(skill): no reviews yet"] }
        var lines = ["\(skill): \(total) review\(total == 1 ? "" : "s")"]
        for review in reviews {
            lines.append("")
            lines.append(review.day.isEmpty ? review.reviewer : "\(review.reviewer), \(review.day)")
            for textLine in review.text.split(separator: "\n", omittingEmptySubsequences: false) {
                lines.append("  " + textLine)
            }
        }
        if total > reviews.count {
            lines.append("")
            lines.append("\(total - reviews.count) more, use --all")
        }
        return lines
    }

    /// `--json`: the shown reviews with reviewer, date, text and avatar URL (no addresses).
    static func reviewsJSON(_ skill: SkillReference, reviews: [SkillReview], total: Int) throws -> String {
        let entries: [JSONValue] = reviews.map { review in
            [
                "reviewer": .string(review.reviewer), "date": .string(review.day),
                "timestamp": .string(review.timestamp),
                "text": .string(review.text), "avatar": review.avatarURL.map(JSONValue.string) ?? .null,
            ]
        }
        let object: JSONValue = [
            "skill": [
                "model": .string(skill.model), "group": .string(skill.group), "language": .string(skill.language),
                "name": .string(skill.name),
            ],
            "total": .number(Double(total)), "more": .number(Double(total - reviews.count)), "reviews": .array(entries),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(object), as: UTF8.self)
    }

    /// Runs a CMS call and rewords its failure as one clear line naming the skill.
    private static func explained<T>(_ skill: SkillReference, _ doing: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SusiAPIError {
            let text: String
            switch error.kind {
            case .unauthorized:
                text = "the server refused the login (HTTP \(error.status ?? 401)); run `susi login` again"
            case .notFound:
                text = "the server does not know the skill \(skill) (HTTP \(error.status ?? 404))"
            case .alreadyReported:
                text = "you have already reported \(skill.name) (HTTP 422)"
            case .rejected:
                text =
                    "the server did not accept the request to \(doing) \(skill.name): \(error.reason ?? "no reason given")"
            default:
                text = "could not \(doing) \(skill.name): \(error.message)"
            }
            throw SkillCommandError(code: error.code, message: text)
        }
    }
}

/// A skill CMS failure worded for the command line; keeps the client's code.
struct SkillCommandError: SusiError {
    let code: String
    let message: String
    var stage: Stage { .brain }
}
