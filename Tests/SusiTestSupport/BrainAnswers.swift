import SusiBrain

/// The spoken text of the answer to `query`, or the error code.
public func say(_ brain: Brain, _ query: String, context: BrainContext = .examples) -> String {
    do {
        return try brain.answer(query, context: context).spokenText
    } catch {
        return error.code
    }
}
