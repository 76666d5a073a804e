/// A step that cleans audio before a decoder hears it (noise suppression, a noise floor).
///
/// Works on 16 kHz mono samples; may hold some back (a partial frame) until `flush`.
/// Implementations keep state across calls (noise estimates) and are not thread-safe.
public protocol SamplePreprocessor: AnyObject {
    /// The processed samples available so far.
    func process(_ samples: [Int16]) -> [Int16]
    /// Whatever is held back, at the end of an utterance.
    func flush() -> [Int16]
}

extension Array where Element == any SamplePreprocessor {
    /// `samples` through every step in order.
    func process(_ samples: [Int16]) -> [Int16] {
        reduce(samples) { $1.process($0) }
    }

    /// Flushes every step, feeding each one's remainder through the steps after it.
    func flush() -> [Int16] {
        var carried: [Int16] = []
        for step in self {
            carried = step.process(carried) + step.flush()
        }
        return carried
    }
}
