import Foundation

/// Answer text with `$name$` placeholders, compiled once.
///
/// A name is letters, digits, `_`, `.` or `!`: `$1$` (a wildcard capture), `$!$` or
/// `$object$` (an atomic console value), `$title$` (a field of the selected data row),
/// `$time$` (a built-in value). A `$` that does not start such a placeholder is plain text,
/// so prices like `$5` need no escaping.
struct AnswerTemplate: Sendable, Equatable {
    enum Segment: Sendable, Equatable {
        case text(String)
        case variable(String)
    }

    let segments: [Segment]

    /// A template from its parts (read back from `SkillCache`).
    init(segments: [Segment]) {
        self.segments = segments
    }

    init(_ source: String) {
        var segments: [Segment] = []
        var text = ""
        var rest = Substring(source)
        while let dollar = rest.firstIndex(of: "$") {
            text += rest[..<dollar]
            let afterDollar = rest.index(after: dollar)
            if let (name, close) = Self.name(in: rest[afterDollar...]) {
                if !text.isEmpty { segments.append(.text(text)) }
                text = ""
                segments.append(.variable(name))
                rest = rest[rest.index(after: close)...]
            } else {
                text += "$"
                rest = rest[afterDollar...]
            }
        }
        text += rest
        if !text.isEmpty { segments.append(.text(text)) }
        self.segments = segments
    }

    /// The placeholder name starting at `text` and the index of its closing `$`. A memory
    /// name may hold captures, as in `$_$1$$` (the memory named by the first capture).
    static func name(in text: Substring) -> (String, Substring.Index)? {
        var index = text.startIndex
        var name = ""
        while index < text.endIndex {
            let character = text[index]
            if character == "$" {
                // "$_$1$$": an embedded "$digits$" inside a memory name.
                let after = text.index(after: index)
                let digits = text[after...].prefix(while: \.isNumber)
                let digitsEnd = digits.endIndex
                if name.hasPrefix("_"), !digits.isEmpty, digitsEnd < text.endIndex, text[digitsEnd] == "$",
                    text.index(after: digitsEnd) < text.endIndex
                {
                    name += "$\(digits)$"
                    index = text.index(after: digitsEnd)
                    continue
                }
                return name.isEmpty ? nil : (name, index)
            }
            guard isNameCharacter(character) else { return nil }
            name.append(character)
            index = text.index(after: index)
        }
        return nil
    }

    static func isNameCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "."
            || character == "!"
    }

    /// The placeholder names, in order.
    var variables: [String] {
        segments.compactMap { if case .variable(let name) = $0 { name } else { nil } }
    }

    var isEmpty: Bool { segments.isEmpty }

    /// The text with every placeholder filled, or `nil` when one has no (or an empty) value:
    /// such an answer cannot be given, and the next candidate is tried.
    func render(escape: (String) -> String = { $0 }, _ resolve: (String) -> String?) -> String? {
        var output = ""
        for segment in segments {
            switch segment {
            case .text(let text):
                output += text
            case .variable(let name):
                guard let value = resolve(name), !value.isEmpty else { return nil }
                output += escape(value)
            }
        }
        return output
    }
}
