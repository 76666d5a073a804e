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

    /// `^text^>_name`: the text is stored and goes from the answer.
    private static func blindAssignments(_ characters: [Character], _ assignments: inout [Assignment]) -> [Character] {
        scan(characters, &assignments) { index, _ in
            guard characters[index] == "^",
                let close = characters[(index + 1)...].firstIndex(of: "^"),
                close + 1 < characters.count, characters[close + 1] == ">",
                let (name, end) = name(after: close + 1, in: characters)
            else { return nil }
            return (Assignment(name: name, value: String(characters[(index + 1)..<close]).trimmedBlanks), end)
        }
    }

    /// `word>_name`: the word before `>` is stored and stays in the answer.
    private static func visibleAssignments(_ characters: [Character], _ assignments: inout [Assignment])
        -> [Character]
    {
        scan(characters, &assignments) { index, output in
            guard characters[index] == ">", index > 0, !isSeparator(characters[index - 1]),
                let (name, end) = name(after: index, in: characters)
            else { return nil }
            var start = output.count
            while start > 0, !isSeparator(output[start - 1]) { start -= 1 }
            let value = String(output[start...])
            guard !value.isEmpty, !value.contains("^") else { return nil }
            return (Assignment(name: name, value: value), end)
        }
    }

    /// `characters` without what `match` takes: at each index, given what is kept so far, it
    /// returns an assignment and the index after its syntax, or nil to keep the character.
    private static func scan(
        _ characters: [Character], _ assignments: inout [Assignment],
        match: (Int, [Character]) -> (Assignment, end: Int)?
    ) -> [Character] {
        var output: [Character] = []
        var index = 0
        while index < characters.count {
            if let (assignment, end) = match(index, output) {
                assignments.append(assignment)
                index = end
            } else {
                output.append(characters[index])
                index += 1
            }
        }
        return output
    }
}
