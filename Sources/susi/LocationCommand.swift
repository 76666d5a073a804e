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
            context.print(LocationSetting.describe(try context.store.loadOrCreate().location))
        case "set":
            var words = [try arguments.required("PLACE")]
            while let more = try arguments.positional() { words.append(more) }
            try arguments.finish()
            _ = try context.store.loadOrCreate()
            let outcome = try LocationSetting.apply(words.joined(separator: " "), store: context.store, gazetteer: Gazetteer())
            context.print(outcome.description)
        case "clear":
            try arguments.finish()
            _ = try context.store.loadOrCreate()
            context.print(LocationSetting.describe(try LocationSetting.clear(store: context.store).location))
        default:
            throw UsageError("unknown action '\(action)'; expected get, set or clear")
        }
    }
}
