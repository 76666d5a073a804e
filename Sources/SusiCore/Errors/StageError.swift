/// The failures of one stage: stable kebab-case codes (the raw values) and the stage each
/// belongs to.
public protocol StageErrorKind: RawRepresentable, Hashable, Sendable where RawValue == String {
    /// The stage a failure of this kind belongs to.
    var stage: Stage { get }
}

/// A failure of one stage: its kind (which gives the code and stage) and a one-line message.
///
/// Each stage names its own: `typealias AudioError = StageError<AudioErrorKind>`, so callers
/// write `AudioError(.noDevice, "...")` and `catch let error as AudioError`.
public struct StageError<K: StageErrorKind>: SusiError, Equatable {
    /// The stage's kinds, as `AudioError.Kind`.
    public typealias Kind = K

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var stage: Stage { kind.stage }
    public var code: String { kind.rawValue }
}
