import Foundation
import SusiCore
import SusiModel

/// `susi location set PLACE`: the `location.*` keys SUSI's chat.json gets (`latitude`,
/// `longitude`, `country_code`, `country_name`, as the apps send from the phone's position),
/// from a city name looked up offline in the `Gazetteer`, or from `latitude,longitude`.
public enum LocationSetting {
    /// What was set, for the command's output.
    public struct Outcome: Sendable, Equatable {
        /// The city found, nil for coordinates given as numbers.
        public var place: Gazetteer.Place?
        /// Other places of that name that the words fit too, most populous first.
        public var others: [Gazetteer.Place] = []
        /// The saved config.
        public var config: Config

        /// What was set, in words: "Berlin: latitude 52.5, longitude 13.36 (DE Germany)"; when
        /// the name was ambiguous, which was taken and how to say another: "Portland, Oregon:
        /// ... (US United States); 3 places have that name, I took the largest: say 'Portland,
        /// Maine' for another".
        public var description: String {
            let set = (place.map { "\($0.fullName): " } ?? "") + LocationSetting.describe(config.location)
            guard let place, let other = others.first else { return set }
            return set + "; \(others.count + 1) places have that name, I took the largest: "
                + LocationSetting.howToSay(other, besides: place)
        }
    }

    /// The `location.*` keys in words; "no location set" without coordinates.
    public static func describe(_ location: Config.Location) -> String {
        guard let latitude = location.latitude, let longitude = location.longitude else { return "no location set" }
        let country = [location.countryCode, location.countryName].filter { !$0.isEmpty }.joined(separator: " ")
        return "latitude \(JSONValue.format(latitude)), longitude \(JSONValue.format(longitude))"
            + (country.isEmpty ? "" : " (\(country))")
    }

    /// How to name `other` rather than `chosen`: by its US state, its country, or its numbers.
    static func howToSay(_ other: Gazetteer.Place, besides chosen: Gazetteer.Place) -> String {
        if !other.region.isEmpty, other.region != chosen.region || other.countryCode != chosen.countryCode {
            return "say '\(other.name), \(other.region)' for another"
        }
        if other.countryCode != chosen.countryCode {
            return "say '\(other.name), \(other.countryName.isEmpty ? other.countryCode : other.countryName)' for another"
        }
        return "say '\(JSONValue.format(other.latitude)),\(JSONValue.format(other.longitude))' for the next largest"
    }

    /// The gazetteer `make deps` installed beside the models (`models/gazetteer`), else the
    /// small list of tzdata's time-zone cities.
    public static func gazetteer(environment: [String: String]) -> Gazetteer {
        Gazetteer.installed(in: (try? Assembly.modelsDirectory(environment: environment)).map { $0 + "/gazetteer" })
    }

    /// Sets the location from `text` in the config of `store` and says what was set; for the
    /// web page (`SpeakerDashboard.locate`). The gazetteer is read for each call and let go.
    public static func locator(store: ConfigStore, environment: [String: String])
        -> @Sendable (String) throws(ConfigError) -> String
    {
        { text throws(ConfigError) in
            try apply(text, store: store, gazetteer: gazetteer(environment: environment)).description
        }
    }

    /// Sets the location from `text`: `52.52,13.40` (or `52.52 13.40`) as numbers, else a city.
    ///
    /// Numbers leave the country keys empty (they cannot be known offline); a city sets all four.
    /// `gazetteer` is read only for a city (GeoNames' takes a moment and some memory).
    /// - Throws: `config-bad-value` naming what was not understood, and the store's failures.
    public static func apply(
        _ text: String, store: ConfigStore, gazetteer: @autoclosure () -> Gazetteer
    ) throws(ConfigError) -> Outcome {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let (latitude, longitude) = try coordinates(trimmed) {
            let config = try store.set([
                ("location.latitude", JSONValue.format(latitude)), ("location.longitude", JSONValue.format(longitude)),
                ("location.country_code", ""), ("location.country_name", ""),
            ])
            return Outcome(place: nil, config: config)
        }
        let gazetteer = gazetteer()
        guard let match = gazetteer.lookUp(trimmed) else { throw notFound(trimmed, in: gazetteer) }
        let place = match.place
        let config = try store.set([
            ("location.latitude", JSONValue.format(place.latitude)), ("location.longitude", JSONValue.format(place.longitude)),
            ("location.country_code", place.countryCode), ("location.country_name", place.countryName),
        ])
        return Outcome(place: place, others: match.others, config: config)
    }

    /// Why `text` was not found: a country or region that has no city of that name (naming
    /// where there is one), or a name the gazetteer lacks; the fallback list says it is small.
    static func notFound(_ text: String, in gazetteer: Gazetteer) -> ConfigError {
        let numbers = "give it as latitude,longitude instead, e.g. 52.52,13.40"
        let city = String(text.prefix { $0 != "," })
        if city.count < text.count, let elsewhere = gazetteer.lookUp(city) {
            let place = elsewhere.place
            let country = place.countryName.isEmpty ? place.countryCode : place.countryName
            return ConfigError(
                .badValue,
                "'\(text)': the offline gazetteer has no \(city.trimmingCharacters(in: .whitespaces)) there "
                    + "(the largest is \(place.fullName), \(country)); \(numbers)")
        }
        switch gazetteer.source {
        case .geoNames:
            return ConfigError(
                .badValue,
                "'\(text)' is not a city of the offline gazetteer (GeoNames' cities over 15,000 people); "
                    + "\(numbers)")
        case .timeZoneCities:
            return ConfigError(
                .badValue,
                "'\(text)' is not one of tzdata's time-zone cities, the small list used while the GeoNames "
                    + "gazetteer is not installed (`make deps` puts it into models/gazetteer); \(numbers)")
        }
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
