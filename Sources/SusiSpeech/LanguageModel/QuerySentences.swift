import Foundation

/// What people ask a speaker beyond its skills, as sentences for the language model: the
/// query-domain templates of `models/language/templates` with their `{class}` slots filled
/// from entity lists.
///
/// A template line is words, `(a|b|)` choices (an empty choice drops the group) and
/// `{class}` slots. Classes come from `models/language/classes/<class>.txt` (one name a
/// line) and from maintained sources when present: `country`, `language` and `currency`
/// from Debian's iso-codes JSON, `city` also from tzdata's `zone1970.tab`, `number` from 0 to
/// 100 spelled out. Each template is filled `fillingsPerTemplate` times, entities taken in
/// turn per class so that, over all templates, every entity of a class appears; a class's
/// remaining entities are then spread over its templates until each appeared once.
/// Deterministic: the same files give the same sentences.
public struct QuerySentences: Sendable {
    /// Where iso-codes and tzdata live; tests point these elsewhere.
    public struct Sources: Sendable, Equatable {
        /// Directory of iso-codes' JSON files (`iso_3166-1.json`, ...).
        public var isoCodesDirectory: String
        /// tzdata's table of time zones with their principal cities.
        public var zoneTable: String
        /// tzdata's compiled source (`tzdata.zi`), whose zone and link names also hold the
        /// cities of zones merged away from `zoneTable` (Oslo, Amsterdam) and older names.
        public var zoneData: String

        /// Debian's paths.
        public init(
            isoCodesDirectory: String = "/usr/share/iso-codes/json",
            zoneTable: String = "/usr/share/zoneinfo/zone1970.tab",
            zoneData: String = "/usr/share/zoneinfo/tzdata.zi"
        ) {
            self.isoCodesDirectory = isoCodesDirectory
            self.zoneTable = zoneTable
            self.zoneData = zoneData
        }
    }

    /// Template lines by file, `#` comments and blank lines removed.
    public var templates: [String]
    /// Entity names by class, each a list of words.
    public var classes: [String: [[String]]]
    /// Hash of everything read, for the model cache.
    public var contentHash: String

    /// Fillings of each template line.
    static let fillingsPerTemplate = 6

    /// Reads the templates and classes under `directory` (`models/language`) and the
    /// maintained sources. A missing directory gives no sentences; a missing source leaves its
    /// class to the class file.
    public init(directory: String, sources: Sources = Sources()) {
        var hash = FNV1a()
        var templates: [String] = []
        var classes: [String: [[String]]] = [:]
        let fileManager = FileManager.default
        func lines(_ path: String) -> [String] {
            guard let data = fileManager.contents(atPath: path) else { return [] }
            hash.add(path)
            hash.add(Array(data))
            return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        }
        let templateDirectory = directory + "/templates"
        for name in ((try? fileManager.contentsOfDirectory(atPath: templateDirectory)) ?? []).sorted()
        where name.hasSuffix(".txt") {
            templates += lines(templateDirectory + "/" + name)
        }
        let classDirectory = directory + "/classes"
        for name in ((try? fileManager.contentsOfDirectory(atPath: classDirectory)) ?? []).sorted()
        where name.hasSuffix(".txt") {
            let entities = lines(classDirectory + "/" + name).map(Self.words(of:)).filter { !$0.isEmpty }
            classes[String(name.dropLast(4)), default: []] += entities
        }
        let iso = sources.isoCodesDirectory
        classes["country", default: []] += Self.isoNames(lines: lines, path: iso + "/iso_3166-1.json", key: "3166-1")
        classes["language", default: []] += Self.isoNames(
            lines: lines, path: iso + "/iso_639-2.json", key: "639-2", requiring: "alpha_2")
        classes["currency", default: []] += Self.isoNames(lines: lines, path: iso + "/iso_4217.json", key: "4217")
        classes["city", default: []] += Self.zoneCities(lines(sources.zoneTable))
        classes["city", default: []] += Self.zoneDataCities(lines(sources.zoneData))
        classes["number", default: []] += (0...100).map(SpokenNumbers.words)
        for (name, entities) in classes {
            var seen = Set<[String]>()
            classes[name] = entities.filter { seen.insert($0).inserted }
        }
        self.templates = templates
        self.classes = classes
        contentHash = hash.hex
    }

    /// The names under `key` of an iso-codes JSON file (its `common_name` when it has one,
    /// else the name before any comma or semicolon), entries lacking `requiring` left out.
    static func isoNames(lines: (String) -> [String], path: String, key: String, requiring: String? = nil) -> [[String]] {
        let text = lines(path).joined(separator: "\n")
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let entries = object[key] as? [[String: Any]]
        else { return [] }
        return entries.compactMap { entry -> [String]? in
            if let requiring, entry[requiring] == nil { return nil }
            guard let name = (entry["common_name"] ?? entry["name"]) as? String else { return nil }
            let plain = name.split(whereSeparator: { $0 == "," || $0 == ";" || $0 == "(" }).first.map(String.init) ?? name
            let words = Self.words(of: plain)
            return words.isEmpty ? nil : words
        }
    }

    /// The cities of tzdata's `zone1970.tab` lines (`DE\t+5230+01322\tEurope/Berlin`):
    /// the last part of each zone name, underscores as spaces.
    static func zoneCities(_ lines: [String]) -> [[String]] {
        lines.compactMap { line -> [String]? in
            let fields = line.split(separator: "\t")
            guard fields.count >= 3, let city = fields[2].split(separator: "/").last else { return nil }
            let words = Self.words(of: city.replacingOccurrences(of: "_", with: " "))
            return words.isEmpty ? nil : words
        }
    }

    /// The areas whose zone names end in a city (not `US/Eastern`, `Etc/GMT+5`).
    static let cityAreas: Set<Substring> = ["Africa", "America", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific"]

    /// The cities of tzdata's zone (`Z Europe/Oslo ...`) and link (`L Europe/London
    /// Europe/Belfast`) lines: the last part of each name in `cityAreas`, underscores as
    /// spaces; abbreviations (`Australia/NSW`) and compass points (`Australia/North`) left out.
    static func zoneDataCities(_ lines: [String]) -> [[String]] {
        let notCities: Set<Substring> = ["North", "South", "East", "West", "Central"]
        return lines.compactMap { line -> [String]? in
            let fields = line.split(separator: " ")
            guard fields.count >= 2, fields[0] == "Z" || fields[0] == "L" else { return nil }
            let name = fields[0] == "Z" ? fields[1] : fields.count >= 3 ? fields[2] : fields[1]
            let parts = name.split(separator: "/")
            guard parts.count >= 2, let area = parts.first, cityAreas.contains(area), let city = parts.last,
                !notCities.contains(city), city.contains(where: \.isLowercase)
            else { return nil }
            let words = Self.words(of: city.replacingOccurrences(of: "_", with: " "))
            return words.isEmpty ? nil : words
        }
    }

    /// Lower-case words of a name, accents removed ("São Paulo" is "sao paulo"), as the skill
    /// sentences spell them.
    static func words(of text: String) -> [String] {
        SkillSentences.words(of: text.folding(options: .diacriticInsensitive, locale: nil))
            .filter { $0.unicodeScalars.allSatisfy(\.isASCII) }
    }

    /// The sentences, each with `weight` (split over a template's fillings).
    public func sentences(weight: Double = 1) -> [SkillSentences.Sentence] {
        var cursors: [String: Int] = [:]
        func next(_ name: String) -> [String] {
            guard let entities = classes[name], !entities.isEmpty else { return [] }
            let index = cursors[name, default: 0]
            cursors[name] = index + 1
            return entities[(index * Self.stride(through: entities.count)) % entities.count]
        }
        var result: [SkillSentences.Sentence] = []
        func fill(_ variant: [String], share: Double) {
            var words: [String] = []
            for token in variant {
                if token.hasPrefix("{"), token.hasSuffix("}") {
                    let filler = next(String(token.dropFirst().dropLast()))
                    guard !filler.isEmpty else { return }
                    words += filler
                } else {
                    words.append(token)
                }
            }
            if !words.isEmpty { result.append(.init(words: words, weight: share)) }
        }
        var templatesByClass: [String: [[String]]] = [:]
        for template in templates {
            let variants = Self.expand(template)
            let slotted = variants.contains { $0.contains(where: { $0.hasPrefix("{") }) }
            let count = slotted ? max(Self.fillingsPerTemplate, variants.count) : variants.count
            for index in 0..<count { fill(variants[index % variants.count], share: weight / Double(count)) }
            for variant in variants {
                for token in variant where token.hasPrefix("{") {
                    templatesByClass[String(token.dropFirst().dropLast()), default: []].append(variant)
                }
            }
        }
        // Every entity once at least: the rest of each class, spread over its templates.
        for name in templatesByClass.keys.sorted() {
            guard let variants = templatesByClass[name], let entities = classes[name] else { continue }
            var index = 0
            while cursors[name, default: 0] < entities.count {
                fill(variants[index % variants.count], share: weight / Double(Self.fillingsPerTemplate))
                index += 1
            }
        }
        return result
    }

    /// The step through a class's list of `count` entities: 7 mixes the list's order, but
    /// only a step coprime with its length reaches every entity (with 7 itself, a list of 42
    /// units gave 6 of them, and 49 animals 7).
    static func stride(through count: Int) -> Int {
        func divisor(_ a: Int, _ b: Int) -> Int { b == 0 ? a : divisor(b, a % b) }
        var step = 7
        while count > 1, divisor(step, count) != 1 { step += 1 }
        return step
    }

    /// Every reading of a template line: `(a|b|)` groups expanded, words split, `{class}`
    /// kept as one token.
    static func expand(_ template: String) -> [[String]] {
        var variants: [[String]] = [[]]
        var rest = Substring(template)
        while !rest.isEmpty {
            if rest.first == "(", let close = rest.firstIndex(of: ")") {
                let choices = rest[rest.index(after: rest.startIndex)..<close].split(
                    separator: "|", omittingEmptySubsequences: false)
                let options = choices.map { tokens(of: String($0)) }
                variants = variants.flatMap { prefix in options.map { prefix + $0 } }
                rest = rest[rest.index(after: close)...]
            } else {
                let end = rest.firstIndex(of: "(") ?? rest.endIndex
                let plain = tokens(of: String(rest[..<end]))
                variants = variants.map { $0 + plain }
                rest = rest[end...]
            }
        }
        return variants.filter { !$0.isEmpty }
    }

    /// Words and `{class}` slots of plain template text.
    static func tokens(of text: String) -> [String] {
        text.split(separator: " ").flatMap { piece -> [String] in
            piece.hasPrefix("{") && piece.hasSuffix("}") ? [String(piece)] : SkillSentences.words(of: String(piece))
        }
    }
}
