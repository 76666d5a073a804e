/// An `audio_volume` action: set the output volume.
public struct VolumeAction: ChatActionPayload {
    /// The volume in percent, 0-100; out-of-range values are clamped when read.
    public var volume: Int

    /// Creates a volume action; the value is clamped to 0-100.
    public init(volume: Int) {
        self.volume = min(100, max(0, volume))
    }

    public init(object: [String: JSONValue]) {
        self.init(volume: object.lenientInt("volume") ?? 50)
    }

    public var object: [String: JSONValue] {
        ["volume": .number(Double(volume))]
    }
}
