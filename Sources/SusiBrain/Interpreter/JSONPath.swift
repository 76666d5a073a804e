import Foundation
import SusiModel

/// The JSONPath subset console blocks use: `$`, `$.a.b`, `$.a[0]`, `$[0]`, `$['a b']`,
/// negative indexes counting from the end (`$.items[-1]`), and the forms SUSI also accepts:
/// a dot before a bracket (`$.[0].x`, `$.[2].[0]`) and a trailing dot (`$.a.`).
struct JSONPath: Sendable, Equatable {
    enum Step: Sendable, Equatable {
        case key(String)
        case index(Int)
    }

    let steps: [Step]

    /// Parses a path; `nil` when it is not in the subset.
    init?(_ text: String) {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        guard rest.hasPrefix("$") else { return nil }
        rest = rest.dropFirst()
        var steps: [Step] = []
        while !rest.isEmpty {
            if rest.hasPrefix(".") {
                rest = rest.dropFirst()
                // SUSI also reads "$.[0].x", "$.[2].[0]" and a trailing "$.a.".
                if rest.isEmpty || rest.hasPrefix("[") { continue }
                let end = rest.firstIndex { $0 == "." || $0 == "[" } ?? rest.endIndex
                let key = rest[..<end]
                guard !key.isEmpty else { return nil }
                steps.append(.key(String(key)))
                rest = rest[end...]
            } else if rest.hasPrefix("[") {
                guard let close = rest.firstIndex(of: "]") else { return nil }
                let inside = rest[rest.index(after: rest.startIndex)..<close].trimmingCharacters(
                    in: .whitespaces)
                if let index = Int(inside) {
                    steps.append(.index(index))
                } else if inside.count >= 2, let quote = inside.first, quote == "'" || quote == "\"",
                    inside.last == quote
                {
                    steps.append(.key(String(inside.dropFirst().dropLast())))
                } else {
                    return nil
                }
                rest = rest[rest.index(after: close)...]
            } else {
                return nil
            }
        }
        self.steps = steps
    }

    /// The value the path points at, or `nil` when a step is missing.
    func select(in root: JSONValue) -> JSONValue? {
        var current = root
        for step in steps {
            switch step {
            case .key(let key):
                guard let next = current[key] else { return nil }
                current = next
            case .index(let index):
                guard let elements = current.arrayValue else { return nil }
                let resolved = index < 0 ? elements.count + index : index
                guard elements.indices.contains(resolved) else { return nil }
                current = elements[resolved]
            }
        }
        return current
    }
}
