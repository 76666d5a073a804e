import Foundation
import SusiCore

/// `susi location set PLACE`: the `location.*` keys SUSI's chat.json gets (`latitude`,
/// `longitude`, `country_code`, `country_name`, as the apps send from the phone's position),
/// from a city name looked up offline in the `Gazetteer`, or from `latitude,longitude`.
public enum LocationSetting {
    /// What was set, for the command's output.
    public struct Outcome: Sendable, Equatable {
        /// The city found, nil for coordinates given as numbers.
        public var place: Gazetteer.Place?
        /// The saved config.
        public var config: Config

        /// What was set, in words: "Berlin: latitude 52.5, longitude 13.36 (DE Germany)".
        public var description: String {
            (place.map { "\($0.name): " } ?? "") + LocationSetting.describe(config.location)
        }
    }

    /// The `location.*` keys in words; "no location set" without coordinates.
    public static func describe(_ location: Config.Location) -> String {
        guard let latitude = location.latitude, let longitude = location.longitude else { return "no location set" }
        let country = [location.countryCode, location.countryName].filter { !$0.isEmpty }.joined(separator: " ")
        return "latitude \(JSONValue.format(latitude)), longitude \(JSONValue.format(longitude))"
            + (country.isEmpty ? "" : " (\(country))")
    }

    /// Sets the location from `text` in the config of `store` and says what was set; for the
    /// web page (`SpeakerDashboard.locate`).
    public static func locator(store: ConfigStore) -> @Sendable (String) throws(ConfigError) -> String {
        { text throws(ConfigError) in try apply(text, store: store, gazetteer: Gazetteer()).description }
    }

    /// Sets the location from `text`: `52.52,13.40` (or `52.52 13.40`) as numbers, else a city.
    ///
    /// Numbers leave the country keys empty (they cannot be known offline); a city sets all four.
    /// - Throws: `config-bad-value` naming what was not understood, and the store's failures.
    public static func apply(_ text: String, store: ConfigStore, gazetteer: Gazetteer) throws(ConfigError) -> Outcome {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let (latitude, longitude) = try coordinates(trimmed) {
            let config = try store.set([
                ("location.latitude", JSONValue.format(latitude)), ("location.longitude", JSONValue.format(longitude)),
                ("location.country_code", ""), ("location.country_name", ""),
            ])
            return Outcome(place: nil, config: config)
        }
        guard let place = gazetteer.find(trimmed) else {
            throw ConfigError(
                .badValue,
                "'\(trimmed)' is not a city of the offline gazetteer (tzdata's time-zone cities, e.g. Berlin, New York, "
                    + "Sao Paulo); give it as latitude,longitude instead, e.g. 52.52,13.40")
        }
        let config = try store.set([
            ("location.latitude", JSONValue.format(place.latitude)), ("location.longitude", JSONValue.format(place.longitude)),
            ("location.country_code", place.countryCode), ("location.country_name", place.countryName),
        ])
        return Outcome(place: place, config: config)
    }

    /// `lat,lon` or `lat lon` in degrees; nil when `text` is not two numbers.
    /// - Throws: `config-bad-value` for numbers out of range.
    static func coordinates(_ text: String) throws(ConfigError) -> (Double, Double)? {
        let parts = text.split(whereSeparator: { $0 == "," || $0 == " " })
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]) else { return nil }
        guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            throw ConfigError(.badValue, "latitude must be -90 to 90 and longitude -180 to 180, not \(text)")
        }
        return (latitude, longitude)
    }

    /// Clears the four `location.*` keys: SUSI is told no place.
    public static func clear(store: ConfigStore) throws(ConfigError) -> Config {
        try store.set([
            ("location.latitude", "null"), ("location.longitude", "null"), ("location.country_code", ""),
            ("location.country_name", ""),
        ])
    }
}
