import SusiCore
import SusiModel

/// A reply together with where it came from, so the pipeline can report a fallback.
public struct BrainAnswer: Sendable {
    /// Which brain gave the reply.
    public enum Source: String, Sendable, Equatable {
        /// The built-in brain, by choice (local mode, or a local intent in hybrid mode).
        case local
        /// The SUSI server.
        case remote
        /// The built-in brain because the server failed; `fallbackError` says how.
        case localFallback = "local-fallback"
    }

    /// The reply to act on.
    public var response: ChatResponse
    /// Which brain gave it.
    public var source: Source
    /// Why the server was not used, for an `error` event (stage, code, message); set only
    /// for `.localFallback`.
    public var fallbackError: (any SusiError)?

    /// Creates an answer record.
    public init(response: ChatResponse, source: Source, fallbackError: (any SusiError)? = nil) {
        self.response = response
        self.source = source
        self.fallbackError = fallbackError
    }
}
