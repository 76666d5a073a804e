import SusiCore

/// Why the built-in brain refused a query or could not load or fetch something.
public struct BrainError: SusiError, Equatable {
    /// The failure classes; each has a stable code.
    public enum Kind: String, Sendable, CaseIterable {
        /// The query is empty or only blanks and punctuation.
        case emptyQuery = "brain-empty-query"
        /// The query is longer than `Brain.maxQueryBytes`.
        case queryTooLong = "brain-query-too-long"
        /// The query holds control characters or undecodable bytes.
        case binaryQuery = "brain-binary-query"
        /// The skills directory cannot be read.
        case skillsUnreadable = "brain-skills-unreadable"
        /// A console URL could not be fetched or did not answer 2xx.
        case fetchFailed = "brain-fetch-failed"
        /// A console URL answered something that is not JSON.
        case badData = "brain-bad-data"
    }

    /// The class of failure.
    public let kind: Kind
    /// One line for a person.
    public let message: String

    /// Creates an error.
    public init(_ kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// Always `.brain`.
    public var stage: Stage { .brain }
    /// Stable kebab-case code such as `brain-empty-query`.
    public var code: String { kind.rawValue }
}
