/// Arithmetic said in words: "what is seven plus five", "twelve divided by four",
/// "multiply six by seven", "3 times 4 minus 2". Multiplication and division bind tighter.
enum Calculator {
    enum Failure: Error, Equatable {
        /// Not an arithmetic question.
        case notArithmetic
        /// Dividing by zero; the expression is still reported.
        case divisionByZero(expression: String)
    }

    enum Operator: String {
        case plus, minus, times
        case dividedBy = "divided by"

        var binds: Int { self == .plus || self == .minus ? 1 : 2 }
    }

    /// Words allowed around the expression ("what is ... please").
    private static let fillers: Set<String> = [
        "what", "whats", "is", "how", "much", "calculate", "compute", "tell", "me", "can", "you",
        "could",
        "please", "the", "result", "of", "answer", "to", "solve", "work", "out", "do", "know", "susi",
        "hey", "equals", "equal", "makes", "make", "it", "again", "now", "quick", "question", "whats",
        "would", "be", "does", "so", "ok", "okay", "i", "want", "need", "help", "with", "sum", "and",
    ]

    /// The expression as spoken back ("7 times 8") and its value.
    static func evaluate(_ text: String) throws(Failure) -> (expression: String, value: Double) {
        let words = QueryNormalizer.words(text)
        if let prefixed = try prefixForm(words) { return prefixed }
        guard let start = words.firstIndex(where: NumberWords.startsNumber),
            words[..<start].allSatisfy({ fillers.contains($0) }),
            let first = NumberWords.parse(words[start...])
        else { throw .notArithmetic }
        var numbers = [first.value]
        var operators: [Operator] = []
        var index = start + first.consumed
        while index < words.count, let (op, length) = operatorAt(words, index),
            let number = NumberWords.parse(words[(index + length)...])
        {
            operators.append(op)
            numbers.append(number.value)
            index += length + number.consumed
        }
        guard !operators.isEmpty, words[index...].allSatisfy({ fillers.contains($0) }) else {
            throw .notArithmetic
        }
        return try compute(numbers, operators)
    }

    /// "add A and B", "add A to B", "subtract A from B", "multiply A by B", "divide A by B",
    /// "the sum of A and B", "the product of A and B".
    private static func prefixForm(_ words: [String]) throws(Failure) -> (
        expression: String, value: Double
    )? {
        let verbs: [String: Operator] = [
            "add": .plus, "sum": .plus, "subtract": .minus, "multiply": .times, "product": .times,
            "divide": .dividedBy,
        ]
        guard let verbIndex = words.firstIndex(where: { verbs[$0] != nil }),
            let op = verbs[words[verbIndex]],
            words[..<verbIndex].allSatisfy({ fillers.contains($0) || $0 == "the" })
        else { return nil }
        var index = verbIndex + 1
        if index < words.count, words[index] == "of" { index += 1 }
        guard let first = NumberWords.parse(words[index...]) else { return nil }
        index += first.consumed
        let joiners: Set<String> = ["and", "to", "from", "by", "with", "into"]
        guard index < words.count, joiners.contains(words[index]) else { return nil }
        let joiner = words[index]
        index += 1
        guard let second = NumberWords.parse(words[index...]) else { return nil }
        index += second.consumed
        guard words[index...].allSatisfy({ fillers.contains($0) }) else { return nil }
        // "subtract A from B" is B - A; every other form keeps the spoken order.
        if op == .minus && joiner == "from" {
            return try compute([second.value, first.value], [.minus])
        }
        return try compute([first.value, second.value], [op])
    }

    private static func operatorAt(_ words: [String], _ index: Int) -> (Operator, Int)? {
        let word = words[index]
        let next = index + 1 < words.count ? words[index + 1] : ""
        switch word {
        case "plus", "add": return (.plus, 1)
        case "minus", "less": return (.minus, 1)
        case "take" where next == "away": return (.minus, 2)
        case "times", "x": return (.times, 1)
        case "multiplied" where next == "by" || next == "with": return (.times, 2)
        case "divided" where next == "by": return (.dividedBy, 2)
        case "divide" where next == "by": return (.dividedBy, 2)
        case "over": return (.dividedBy, 1)
        default: return nil
        }
    }

    private static func compute(_ numbers: [Double], _ operators: [Operator]) throws(Failure) -> (
        expression: String, value: Double
    ) {
        var expression = format(numbers[0])
        for (op, number) in zip(operators, numbers.dropFirst()) {
            expression += " \(op.rawValue) \(format(number))"
        }
        // First pass: times and divided by; second: plus and minus.
        var terms = [numbers[0]]
        var pending: [Operator] = []
        for (op, number) in zip(operators, numbers.dropFirst()) {
            if op.binds == 2, let last = terms.popLast() {
                if op == .dividedBy {
                    guard number != 0 else { throw .divisionByZero(expression: expression) }
                    terms.append(last / number)
                } else {
                    terms.append(last * number)
                }
            } else {
                terms.append(number)
                pending.append(op)
            }
        }
        var value = terms[0]
        for (op, term) in zip(pending, terms.dropFirst()) {
            value = op == .plus ? value + term : value - term
        }
        return (expression, value)
    }

    /// A number for speaking: whole numbers without a fraction, others to at most four places.
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "infinity" }
        let rounded = (value * 10_000).rounded() / 10_000
        if rounded == rounded.rounded(), rounded.magnitude < 1e15 { return String(Int64(rounded)) }
        return String(rounded)
    }
}
