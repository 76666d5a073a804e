import Foundation
import SusiCore

/// Places the speaker can be told it is in, offline: the cities of tzdata's zone tables (the
/// gazetteer `models/language` already uses for the recogniser's `city` class), each with the
/// coordinates tzdata gives it, its country code and, from Debian's iso-codes, the country's
/// name.
///
/// tzdata has one city per time zone (about 450), so "Berlin", "New York" or "Kolkata" are
/// found and smaller places are not; those are set as `latitude,longitude`.
public struct Gazetteer: Sendable {
    /// One place.
    public struct Place: Sendable, Equatable {
        /// The city as tzdata spells it ("New York", "Sao Paulo").
        public var name: String
        /// Degrees north (negative: south).
        public var latitude: Double
        /// Degrees east (negative: west).
        public var longitude: Double
        /// ISO 3166-1 alpha-2 code ("DE").
        public var countryCode: String
        /// The country's common name ("Germany"); empty when iso-codes is missing.
        public var countryName: String

        /// Creates a place.
        public init(name: String, latitude: Double, longitude: Double, countryCode: String, countryName: String) {
            self.name = name
            self.latitude = latitude
            self.longitude = longitude
            self.countryCode = countryCode
            self.countryName = countryName
        }
    }

    /// Every place, zone.tab's first (one country each), then zone1970.tab's others.
    public let places: [Place]

    /// The default tables: tzdata's and iso-codes' files.
    public static let zoneTables = ["/usr/share/zoneinfo/zone.tab", "/usr/share/zoneinfo/zone1970.tab"]
    /// Debian iso-codes' country list.
    public static let countryList = "/usr/share/iso-codes/json/iso_3166-1.json"

    /// Reads the zone tables (missing ones are skipped) and the country names.
    public init(zoneTables: [String] = Gazetteer.zoneTables, countryList: String = Gazetteer.countryList) {
        let countries = Self.countryNames(FileManager.default.contents(atPath: countryList) ?? Data())
        var seen = Set<String>()
        var places: [Place] = []
        for table in zoneTables {
            guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { continue }
            for place in Self.places(inZoneTable: text, countries: countries) where seen.insert(place.name).inserted {
                places.append(place)
            }
        }
        self.places = places
    }

    /// A gazetteer of `places`, for tests.
    public init(places: [Place]) {
        self.places = places
    }

    /// The place `text` names: a city ("berlin", "São Paulo", "New_York"), optionally with its
    /// country after a comma ("Portland, US"; name or code) to choose between cities of one
    /// name. Nil when none matches.
    public func find(_ text: String) -> Place? {
        let parts = text.split(separator: ",", maxSplits: 1).map { Self.key(String($0)) }
        guard let city = parts.first, !city.isEmpty else { return nil }
        let matches = places.filter { Self.key($0.name) == city }
        guard parts.count > 1 else { return matches.first }
        let country = parts[1]
        return matches.first { Self.key($0.countryCode) == country || Self.key($0.countryName) == country }
    }

    /// Lower case, accents and punctuation dropped, `_`/`-` as spaces, blanks collapsed.
    static func key(_ text: String) -> String {
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased()
        let spaced = folded.map { $0 == "_" || $0 == "-" ? " " : $0 }.filter { $0.isLetter || $0.isNumber || $0 == " " }
        return String(spaced).split(separator: " ").joined(separator: " ")
    }

    /// The places of a zone table's lines (`DE\t+5230+01322\tEurope/Berlin`); comments and
    /// malformed lines are skipped. The first of several country codes is the place's.
    static func places(inZoneTable text: String, countries: [String: String]) -> [Place] {
        text.split(separator: "\n").compactMap { line -> Place? in
            guard !line.hasPrefix("#") else { return nil }
            let fields = line.split(separator: "\t")
            guard fields.count >= 3, let code = fields[0].split(separator: ",").first.map(String.init),
                let (latitude, longitude) = coordinates(String(fields[1])),
                let city = fields[2].split(separator: "/").last
            else { return nil }
            return Place(
                name: city.replacingOccurrences(of: "_", with: " "), latitude: latitude, longitude: longitude,
                countryCode: code, countryName: countries[code] ?? "")
        }
    }

    /// ISO 6709 as tzdata writes it: `±DDMM±DDDMM` or `±DDMMSS±DDDMMSS`, in degrees.
    static func coordinates(_ text: String) -> (Double, Double)? {
        let characters = Array(text)
        guard let split = characters.dropFirst().firstIndex(where: { $0 == "+" || $0 == "-" }) else { return nil }
        func degrees(_ part: ArraySlice<Character>, degreeDigits: Int) -> Double? {
            guard let sign = part.first, sign == "+" || sign == "-" else { return nil }
            let digits = part.dropFirst()
            guard digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
                digits.count == degreeDigits + 2 || digits.count == degreeDigits + 4
            else { return nil }
            let numbers = Array(digits).map { Int(String($0)) ?? 0 }
            func value(_ range: Range<Int>) -> Double { Double(numbers[range].reduce(0) { $0 * 10 + $1 }) }
            var result = value(0..<degreeDigits) + value(degreeDigits..<(degreeDigits + 2)) / 60
            if digits.count == degreeDigits + 4 { result += value((degreeDigits + 2)..<(degreeDigits + 4)) / 3600 }
            // Four decimals are 11 m, finer than tzdata's minutes.
            result = (result * 10_000).rounded() / 10_000
            return sign == "-" ? -result : result
        }
        guard let latitude = degrees(characters[..<split], degreeDigits: 2),
            let longitude = degrees(characters[split...], degreeDigits: 3)
        else { return nil }
        return (latitude, longitude)
    }

    /// Country code to common name (else name) from iso-codes' JSON.
    static func countryNames(_ data: Data) -> [String: String] {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let entries = object["3166-1"] as? [[String: Any]]
        else { return [:] }
        var names: [String: String] = [:]
        for entry in entries {
            if let code = entry["alpha_2"] as? String, let name = (entry["common_name"] ?? entry["name"]) as? String {
                names[code] = name
            }
        }
        return names
    }
}
