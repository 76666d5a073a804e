import Foundation
import SusiCore
import SusiSpeaker

/// `susi location get|set PLACE|clear`: where the speaker is, for SUSI's chat.json.
enum LocationCommand: Command {
    static let name = "location"
    static let summary = "where the speaker is, sent to SUSI (weather, local answers)"
    static let usage = """
          susi location get           the location.* keys
          susi location set PLACE     a city, looked up offline in tzdata's time-zone cities
                                      ("Berlin", "New York", "Portland, US"), or
                                      LATITUDE,LONGITUDE in degrees ("52.52,13.40")
          susi location clear         send no location
        """

    static func run(_ arguments: inout ArgumentParser, _ context: CommandContext) throws {
        let action = try arguments.required("an action (get, set or clear)")
        switch action {
        case "get":
            try arguments.finish()
            context.print(describe(try context.store.loadOrCreate().location))
        case "set":
            var words = [try arguments.required("PLACE")]
            while let more = try arguments.positional() { words.append(more) }
            try arguments.finish()
            _ = try context.store.loadOrCreate()
            let outcome = try LocationSetting.apply(words.joined(separator: " "), store: context.store, gazetteer: Gazetteer())
            let prefix = outcome.place.map { "\($0.name): " } ?? ""
            context.print(prefix + describe(outcome.config.location))
        case "clear":
            try arguments.finish()
            _ = try context.store.loadOrCreate()
            context.print(describe(try LocationSetting.clear(store: context.store).location))
        default:
            throw UsageError("unknown action '\(action)'; expected get, set or clear")
        }
    }

    private static func describe(_ location: Config.Location) -> String {
        guard let latitude = location.latitude, let longitude = location.longitude else { return "no location set" }
        let country = [location.countryCode, location.countryName].filter { !$0.isEmpty }.joined(separator: " ")
        return "latitude \(JSONValue.format(latitude)), longitude \(JSONValue.format(longitude))"
            + (country.isEmpty ? "" : " (\(country))")
    }
}
