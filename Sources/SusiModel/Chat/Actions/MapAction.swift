/// A `map` action: a place. Servers send the numbers as strings or numbers.
public struct MapAction: ChatActionPayload {
    /// Degrees north.
    public var latitude: Double
    /// Degrees east.
    public var longitude: Double
    /// Map zoom level; 13 when missing.
    public var zoom: Double

    /// Creates a map action.
    public init(latitude: Double, longitude: Double, zoom: Double = 13) {
        self.latitude = latitude
        self.longitude = longitude
        self.zoom = zoom
    }

    public init(object: [String: JSONValue]) {
        latitude = object.lenientDouble("latitude") ?? 0
        longitude = object.lenientDouble("longitude") ?? 0
        zoom = object.lenientDouble("zoom") ?? 13
    }

    public var object: [String: JSONValue] {
        ["latitude": .number(latitude), "longitude": .number(longitude), "zoom": .number(zoom)]
    }
}
