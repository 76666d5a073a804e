/// A command-line mistake: the message names the argument and the command's usage follows.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// Consumes a command's arguments: options anywhere (`--name V` or `--name=V`), then positionals.
///
/// Every argument must be consumed; `finish()` rejects what is left, naming it.
struct ArgumentParser {
    private(set) var arguments: [String]

    init(_ arguments: [String]) { self.arguments = arguments }

    /// True when the flag is present (removes every occurrence).
    mutating func flag(_ names: String...) -> Bool {
        let before = arguments.count
        arguments.removeAll { names.contains($0) }
        return arguments.count != before
    }

    /// How many times any of the flags appear (for `-v -v`).
    mutating func count(_ names: String...) -> Int {
        let before = arguments.count
        arguments.removeAll { names.contains($0) }
        return before - arguments.count
    }

    /// The value of `--name V` or `--name=V`, if given; a missing value is an error.
    mutating func option(_ names: String...) throws(UsageError) -> String? {
        guard
            let index = arguments.firstIndex(where: { argument in
                names.contains(argument) || names.contains { argument.hasPrefix($0 + "=") }
            })
        else { return nil }
        let argument = arguments.remove(at: index)
        if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
            return String(argument[argument.index(after: equals)...])
        }
        guard index < arguments.count, !arguments[index].hasPrefix("--") || arguments[index] == "--" else {
            throw UsageError("\(argument) needs a value")
        }
        return arguments.remove(at: index)
    }

    /// An option parsed as an integer within `range`.
    mutating func intOption(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = try option(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return value
    }

    /// The next positional argument, if any. Call after all options are taken.
    mutating func positional() throws(UsageError) -> String? {
        if arguments.first == "--" { arguments.removeFirst() }
        guard let first = arguments.first else { return nil }
        if first.hasPrefix("-"), first.count > 1, Double(first) == nil {
            throw UsageError("unknown option '\(first)'")
        }
        return arguments.removeFirst()
    }

    /// The next positional argument, which must be there.
    mutating func required(_ name: String) throws(UsageError) -> String {
        guard let value = try positional() else { throw UsageError("missing \(name)") }
        return value
    }

    /// The action word after the command (`susi config get`): one of `actions`, or of `hidden`
    /// (accepted, not listed); else a usage error listing the actions.
    mutating func action(_ actions: String..., hidden: String...) throws(UsageError) -> String {
        let list =
            actions.count < 2 ? actions.joined() : actions.dropLast().joined(separator: ", ") + " or " + (actions.last ?? "")
        let action = try required("an action (\(list))")
        guard actions.contains(action) || hidden.contains(action) else {
            throw UsageError("unknown action '\(action)'; expected \(list)")
        }
        return action
    }

    /// Every positional argument left (TEXT given as one quoted argument or as several words).
    mutating func words() throws(UsageError) -> [String] {
        var words: [String] = []
        while let word = try positional() { words.append(word) }
        return words
    }

    /// Rejects anything not consumed.
    func finish() throws(UsageError) {
        guard let first = arguments.first else { return }
        if first.hasPrefix("-"), first.count > 1 { throw UsageError("unknown option '\(first)'") }
        throw UsageError("unexpected argument '\(first)'")
    }
}
