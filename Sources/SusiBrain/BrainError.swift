import SusiCore

/// Why the built-in brain refused a query or could not load or fetch something.
public typealias BrainError = StageError<BrainErrorKind>

/// The failure classes; each has a stable code.
public enum BrainErrorKind: String, StageErrorKind, CaseIterable {
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
    /// A `!javascript:` script failed, ran out of time or memory, or could not be run.
    case scriptFailed = "brain-script-failed"

    public var stage: Stage { .brain }
}
