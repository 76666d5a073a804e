/// What a command names in a home: one entity ("the front door"), or an area's entities ("the
/// kitchen lights", "the bedroom"), found in the words of a query by `HomeDirectory.find`.
public struct HomeTarget: Sendable, Equatable {
    /// The name as Home Assistant has it ("Kitchen Light", "Living Room"), for answers.
    public var name: String
    /// The entities meant: the one named, or the area's, narrowed by a kind named beside the
    /// area ("lights": only lights) when the area has any of that kind.
    public var entities: [HomeEntity]
    /// The area, when an area was named.
    public var area: HomeArea?
    /// The words of the query that were not part of the name (a number, "percent", ...).
    public var rest: [String]

    /// A target record.
    public init(name: String, entities: [HomeEntity], area: HomeArea? = nil, rest: [String] = []) {
        self.name = name
        self.entities = entities
        self.area = area
        self.rest = rest
    }
}

extension HomeDirectory {
    /// The kinds of thing people name beside a room, and the domains they mean.
    static let kindWords: [String: Set<String>] = [
        "light": ["light"], "lamp": ["light"], "lighting": ["light"],
        "fan": ["fan"], "switch": ["switch"], "plug": ["switch"], "socket": ["switch"],
        "blind": ["cover"], "shade": ["cover"], "curtain": ["cover"], "shutter": ["cover"], "cover": ["cover"],
        "garage": ["cover"], "door": ["cover", "binary_sensor", "lock"], "window": ["cover", "binary_sensor"],
        "lock": ["lock"], "thermostat": ["climate"], "heating": ["climate"], "heater": ["climate"],
        "temperature": ["climate", "sensor"], "tv": ["media_player"], "television": ["media_player"],
    ]

    /// The name in `words` (a query's words) that the most words of it spell: an entity's
    /// friendly name, an area's name or an entity's object id, in that order among names of
    /// as many words. Plurals and case do not matter ("kitchen lights" finds "Kitchen Light"). Nil
    /// when no name occurs.
    public func find(in words: [String]) -> HomeTarget? {
        let said = words.map(Self.stem)
        var best: (length: Int, start: Int, target: HomeTarget, rank: Int)?
        func consider(_ phrase: String, rank: Int, make: () -> HomeTarget) {
            let name = Self.words(phrase).map(Self.stem)
            guard !name.isEmpty, name.count <= said.count else { return }
            for start in 0...(said.count - name.count) where Array(said[start..<start + name.count]) == name {
                if let current = best,
                    current.length > name.count || (current.length == name.count && current.rank >= rank)
                {
                    return
                }
                best = (name.count, start, make(), rank)
                return
            }
        }
        for entity in entities {
            consider(entity.name, rank: 2) { HomeTarget(name: entity.name, entities: [entity]) }
            consider(entity.objectWords, rank: 0) { HomeTarget(name: entity.name, entities: [entity]) }
        }
        for area in areas {
            consider(area.name, rank: 1) {
                HomeTarget(name: area.name, entities: area.entities.compactMap(entity), area: area)
            }
        }
        guard var (length, start, target, _) = best else { return nil }
        // "the bedroom blinds" when the blinds are in the living room: the room said decides.
        if target.area == nil, let entity = target.entities.first,
            let room = areas.first(where: { area in
                !area.entities.contains(entity.id) && Self.occurs(area.name, in: said, outside: start..<start + length)
            })
        {
            let roomWords = Self.words(room.name).map(Self.stem)
            let roomStart =
                (0...(said.count - roomWords.count)).first { Array(said[$0..<$0 + roomWords.count]) == roomWords } ?? 0
            (length, start) = (roomWords.count, roomStart)
            target = HomeTarget(name: room.name, entities: room.entities.compactMap(self.entity), area: room)
        }
        target.rest = Array(words[..<start]) + Array(words[(start + length)...])
        if target.area != nil {
            let kinds = target.rest.map(Self.stem).compactMap { Self.kindWords[$0] }.reduce(into: Set<String>()) {
                $0.formUnion($1)
            }
            let narrowed = target.entities.filter { kinds.contains($0.domain) }
            if !narrowed.isEmpty { target.entities = narrowed }
        }
        return target
    }

    /// Whether `words` name a kind of thing a home has ("lights", "the fan", "blinds"): a
    /// command about one is the home's even when no name in it is known.
    public static func namesAKind(_ words: [String]) -> Bool {
        words.contains { kindWords[stem($0)] != nil }
    }

    /// Whether the words of `name` occur in `said` (stemmed) apart from the words at `taken`.
    static func occurs(_ name: String, in said: [String], outside taken: Range<Int>) -> Bool {
        let words = Self.words(name).map(stem)
        guard !words.isEmpty, words.count <= said.count else { return false }
        return (0...(said.count - words.count)).contains { start in
            Array(said[start..<start + words.count]) == words && !taken.overlaps(start..<start + words.count)
        }
    }

    /// The words of `text` as a query has them: lower case, letters and digits, apostrophes
    /// dropped, anything else a break.
    public static func words(_ text: String) -> [String] {
        text.lowercased().replacingOccurrences(of: "'", with: "").replacingOccurrences(of: "\u{2019}", with: "")
            .split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }

    /// A word without a plural "s" ("lights", "blinds"), so either form finds the other.
    static func stem(_ word: String) -> String {
        word.count > 3 && word.hasSuffix("s") && !word.hasSuffix("ss") ? String(word.dropLast()) : word
    }
}
