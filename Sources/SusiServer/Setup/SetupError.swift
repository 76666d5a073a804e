import SusiCore

/// Why a setup or control request was refused; `code` is stable and goes into the JSON reply.
public struct SetupError: SusiError, Equatable {
    /// The failure classes; the raw value is the stable `code`.
    public enum Kind: String, Sendable, CaseIterable {
        /// A parameter is missing or not allowed; the message names it.
        case badParameter = "setup-bad-parameter"
        /// A setup route was called after setup finished (`susi setup --reset` reopens it).
        case notInSetupMode = "setup-not-in-setup-mode"
        /// The SUSI server refused the account's email and password.
        case loginRefused = "setup-login-refused"
        /// A file (Wi-Fi networks, setup state, pending login) could not be written.
        case storeFailed = "setup-store-failed"
        /// The speaker cannot do this now (no player, no sound device).
        case unavailable = "setup-unavailable"
    }

    /// The class of failure.
    public let kind: Kind
    /// One line for a person; never contains a password or token.
    public let message: String
    /// For `badParameter`: the request parameter at fault.
    public let parameter: String?

    /// Creates an error.
    public init(_ kind: Kind, _ message: String, parameter: String? = nil) {
        self.kind = kind
        self.message = message
        self.parameter = parameter
    }

    /// Always `.server`.
    public var stage: Stage { .server }
    /// Stable kebab-case code, e.g. `setup-bad-parameter`.
    public var code: String { kind.rawValue }

    /// A 400 naming `parameter`.
    static func bad(_ parameter: String, _ message: String) -> SetupError {
        SetupError(.badParameter, message, parameter: parameter)
    }

    /// The HTTP status this error is answered with.
    var httpStatus: Int {
        switch kind {
        case .badParameter: return 400
        case .notInSetupMode: return 403
        case .loginRefused: return 401
        case .storeFailed: return 500
        case .unavailable: return 503
        }
    }

    /// The JSON error reply: `{"error": message, "code": code, "parameter": name}`.
    var response: ServerResponse {
        .json(ErrorReply(error: message, code: code, parameter: parameter), status: httpStatus)
    }
}
