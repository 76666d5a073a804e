extension Duration {
    /// The duration in seconds, for `Thread.sleep` and rates.
    public var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }

    /// The duration in milliseconds.
    public var milliseconds: Double { seconds * 1000 }
}
