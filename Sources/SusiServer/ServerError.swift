import SusiCore

/// Why the HTTP server could not start.
public struct ServerError: SusiError, Equatable {
    /// The failure classes; each has a stable code.
    public enum Kind: String, Sendable, CaseIterable {
        /// The host is not an IPv4 address (or `localhost`).
        case badAddress = "server-bad-address"
        /// Another socket already listens on the address and port.
        case portInUse = "server-port-in-use"
        /// Binding the port needs privileges this process lacks (ports below 1024).
        case permissionDenied = "server-permission-denied"
        /// libmicrohttpd refused to start for another reason.
        case startFailed = "server-start-failed"
    }

    /// The class of failure.
    public let kind: Kind
    /// One line naming the address and the cause.
    public let message: String

    /// Creates an error.
    public init(_ kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// Always `.server`.
    public var stage: Stage { .server }
    /// Stable kebab-case code, e.g. `server-port-in-use`.
    public var code: String { kind.rawValue }
}
