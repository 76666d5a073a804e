/// Resource bounds of an `HTTPServer`; the defaults suit a speaker on a home network.
public struct ServerLimits: Sendable, Equatable {
    /// Connections served at once (each has its own thread); further ones are turned away.
    public var maxConnections: Int
    /// Connections one IP address may hold at once; 0 means no per-address limit.
    public var maxConnectionsPerIP: Int
    /// Seconds an idle connection is kept before it is closed.
    public var connectionTimeoutSeconds: Int
    /// The largest request body accepted; larger ones get 413.
    public var maxBodyBytes: Int
    /// Seconds a client has to send a whole request (headers and body), counted from the
    /// connection's start or the end of its previous reply, however it trickles the bytes in;
    /// then the connection is closed (slowloris). 0 means no deadline. The handler's own time
    /// does not count.
    public var requestDeadlineSeconds: Int
    /// Slots kept free for new clients: when fewer are free, the connection that has waited
    /// longest for its request is closed. 0 keeps none.
    public var reservedConnections: Int
    /// Event streams (`text/event-stream` replies) open at once; further ones get 503. Each
    /// holds a connection and its thread for as long as the page stays open.
    public var maxEventStreams: Int
    /// Seconds between the comment lines an idle event stream sends, so proxies and the
    /// connection timeout keep it open (a client that left is noticed sooner: the server
    /// checks its socket every quarter second).
    public var eventStreamHeartbeatSeconds: Double

    /// Creates limits; every value has a default.
    public init(
        maxConnections: Int = 32, maxConnectionsPerIP: Int = 16,
        connectionTimeoutSeconds: Int = 30, maxBodyBytes: Int = 1024 * 1024, requestDeadlineSeconds: Int = 0,
        reservedConnections: Int = 0,
        maxEventStreams: Int = 4, eventStreamHeartbeatSeconds: Double = 10
    ) {
        self.maxEventStreams = maxEventStreams
        self.eventStreamHeartbeatSeconds = eventStreamHeartbeatSeconds
        self.maxConnections = maxConnections
        self.maxConnectionsPerIP = maxConnectionsPerIP
        self.connectionTimeoutSeconds = connectionTimeoutSeconds
        self.maxBodyBytes = maxBodyBytes
        self.requestDeadlineSeconds = requestDeadlineSeconds
        self.reservedConnections = reservedConnections
    }
}
