/// SUSI's in-answer syntax that must never be spoken: memory assignments and reflections.
///
/// - `^text^>_name` stores `text` and vanishes from the answer (a blind assignment);
/// - `word>_name` stores the word before `>` and leaves the word (a visible assignment);
/// - `` `query` `` is replaced by the brain's answer to `query` (see `Interpreter`).
enum AnswerSyntax {
    /// One variable set by an answer.
    struct Assignment: Equatable {
        let name: String
        let value: String
    }

    /// The answer without its assignments, and the assignments in order.
    static func applyAssignments(_ text: String) -> (text: String, assignments: [Assignment]) {
        var assignments: [Assignment] = []
        var output = blindAssignments(Array(text), &assignments)
        output = visibleAssignments(output, &assignments)
        // A removed assignment leaves its blanks behind: close the gap.
        var text = String(output)
        while text.contains("  ") { text = text.replacingOccurrences(of: "  ", with: " ") }
        return (text.trimmedBlanks, assignments)
    }

    /// Whether skill syntax is left that a listener must not hear: an assignment, a
    /// reflection quote, or a `$name$` placeholder.
    static func containsSkillSyntax(_ text: String) -> Bool {
        if text.contains("`") { return true }
        let characters = Array(text)
        for index in characters.indices where characters[index] == ">" {
            if index + 1 < characters.count, characters[index + 1] == "_" { return true }
            if index > 0, characters[index - 1] == "^" { return true }
        }
        var start: Int?
        for index in characters.indices where characters[index] == "$" {
            if let open = start {
                let name = characters[(open + 1)..<index]
                if !name.isEmpty, name.allSatisfy(AnswerTemplate.isNameCharacter),
                    name.contains(where: \.isLetter)
                        || name.allSatisfy(\.isNumber)
                {
                    return true
                }
            }
            start = index
        }
        return false
    }

    private static func isNameCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "_")
    }

    private static func isSeparator(_ character: Character) -> Bool {
        character.isWhitespace || "?!,.;-".contains(character)
    }

    /// The name after a `>` at `index`, and where it ends; nil when no name follows.
    private static func name(after index: Int, in characters: [Character]) -> (String, Int)? {
        var end = index + 1
        while end < characters.count, isNameCharacter(characters[end]) { end += 1 }
        guard end > index + 1 else { return nil }
        guard end == characters.count || isSeparator(characters[end]) else { return nil }
        return (String(characters[(index + 1)..<end]), end)
    }

    private static func blindAssignments(_ characters: [Character], _ assignments: inout [Assignment]) -> [Character] {
        var output: [Character] = []
        var index = 0
        while index < characters.count {
            if characters[index] == "^",
                let close = characters[(index + 1)...].firstIndex(of: "^"),
                close + 1 < characters.count, characters[close + 1] == ">",
                let (name, end) = name(after: close + 1, in: characters)
            {
                let value = String(characters[(index + 1)..<close]).trimmedBlanks
                assignments.append(Assignment(name: name, value: value))
                index = end
                continue
            }
            output.append(characters[index])
            index += 1
        }
        return output
    }

    private static func visibleAssignments(_ characters: [Character], _ assignments: inout [Assignment])
        -> [Character]
    {
        var output: [Character] = []
        var index = 0
        while index < characters.count {
            if characters[index] == ">", index > 0, !isSeparator(characters[index - 1]),
                let (name, end) = name(after: index, in: characters)
            {
                var start = output.count
                while start > 0, !isSeparator(output[start - 1]) { start -= 1 }
                let value = String(output[start...])
                if !value.isEmpty, !value.contains("^") {
                    assignments.append(Assignment(name: name, value: value))
                    index = end
                    continue
                }
            }
            output.append(characters[index])
            index += 1
        }
        return output
    }
}
