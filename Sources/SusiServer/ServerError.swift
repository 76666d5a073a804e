import SusiCore

/// Why the HTTP server could not start.
public typealias ServerError = StageError<ServerErrorKind>

/// The failure classes; each has a stable code.
public enum ServerErrorKind: String, StageErrorKind, CaseIterable {
    /// The host is not an IPv4 address (or `localhost`).
    case badAddress = "server-bad-address"
    /// Another socket already listens on the address and port.
    case portInUse = "server-port-in-use"
    /// Binding the port needs privileges this process lacks (ports below 1024).
    case permissionDenied = "server-permission-denied"
    /// libmicrohttpd refused to start for another reason.
    case startFailed = "server-start-failed"

    public var stage: Stage { .server }
}
