import SusiModel

/// A skill's five-star ratings: how many people gave each number of stars.
public struct SkillRatings: Sendable, Equatable {
    /// Counts for one to five stars: `counts[0]` is one star, `counts[4]` five.
    public var counts: [Int]
    /// The average the server reported, else computed from `counts`; 0 with no ratings.
    public var average: Double
    /// The number of ratings (the server's `total_star`, else the sum of `counts`).
    public var total: Int

    /// Creates ratings; `average` and `total` default to what `counts` imply.
    public init(
        oneStar: Int, twoStar: Int, threeStar: Int, fourStar: Int, fiveStar: Int,
        average: Double? = nil, total: Int? = nil
    ) {
        counts = [oneStar, twoStar, threeStar, fourStar, fiveStar].map { max($0, 0) }
        let sum = counts.reduce(0, +)
        self.total = max(total ?? sum, 0)
        let weighted = counts.enumerated().reduce(0) { $0 + ($1.offset + 1) * $1.element }
        self.average = average ?? (sum == 0 ? 0 : Double(weighted) / Double(sum))
    }

    /// No ratings at all.
    public static let none = SkillRatings(oneStar: 0, twoStar: 0, threeStar: 0, fourStar: 0, fiveStar: 0)

    /// Reads the star counts wherever a SUSI reply puts them: `ratings` (after rating),
    /// `skill_rating.stars` (getSkillRating), `skill_rating`, or the top level. Nil when
    /// none of these holds a star count.
    init?(reply: [String: JSONValue]) {
        let candidates: [[String: JSONValue]?] = [
            reply["ratings"]?.objectValue, reply["skill_rating"]?["stars"]?.objectValue,
            reply["skill_rating"]?.objectValue, reply["stars"]?.objectValue, reply,
        ]
        let keys = ["one_star", "two_star", "three_star", "four_star", "five_star"]
        guard
            let object = candidates.compactMap({ $0 }).first(where: { candidate in
                keys.contains { candidate[$0]?.intValue != nil }
            })
        else { return nil }
        let counts = keys.map { object[$0]?.intValue ?? 0 }
        let total = object["total_star"]?.intValue
        let average = object["avg_star"]?.doubleValue
        self.init(
            oneStar: counts[0], twoStar: counts[1], threeStar: counts[2], fourStar: counts[3],
            fiveStar: counts[4], average: (total ?? 1) == 0 ? 0 : average, total: total)
    }

    /// How many gave `stars` (1-5) stars; 0 outside that range.
    public func count(stars: Int) -> Int {
        (1...5).contains(stars) ? counts[stars - 1] : 0
    }

    /// The share of `stars` among all ratings, in percent (0 with no ratings).
    public func percentage(stars: Int) -> Double {
        let sum = counts.reduce(0, +)
        return sum == 0 ? 0 : Double(count(stars: stars)) * 100 / Double(sum)
    }

    /// The apps' rating chart as terminal lines: five to one stars, each with a bar as long
    /// as its share (`barWidth` for 100 %), its count and percentage; then average and total.
    public func chartLines(barWidth: Int = 30) -> [String] {
        let width = max(barWidth, 1)
        let countWidth = String(counts.max() ?? 0).count
        var lines: [String] = []
        for stars in stride(from: 5, through: 1, by: -1) {
            let share = percentage(stars: stars)
            var filled = Int((share * Double(width) / 100).rounded())
            if count(stars: stars) > 0 { filled = max(filled, 1) }  // a rating never looks like none
            let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
            let countText = String(count(stars: stars))
            let padded = String(repeating: " ", count: max(countWidth - countText.count, 0)) + countText
            let percent = String(Int(share.rounded()))
            lines.append("\(stars) ★ \(bar) \(padded) \(String(repeating: " ", count: 3 - percent.count))\(percent)%")
        }
        lines.append("average \(Self.format(average)) of 5 from \(total) rating\(total == 1 ? "" : "s")")
        return lines
    }

    /// One sentence for the speaker: "Rated 4.2 out of 5 by 10 people; 6 gave five stars."
    public var spokenSummary: String {
        guard total > 0 else { return "Nobody has rated this skill yet." }
        let people = total == 1 ? "1 person" : "\(total) people"
        let best = (1...5).reversed().max { count(stars: $0) < count(stars: $1) } ?? 5
        let words = ["", "one star", "two stars", "three stars", "four stars", "five stars"]
        return
            "This skill is rated \(Self.format(average)) out of 5 by \(people). The most common rating is \(words[best])."
    }

    /// One decimal, none when whole: `4.2`, `4`.
    static func format(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
