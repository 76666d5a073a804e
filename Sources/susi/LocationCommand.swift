import Foundation
import SusiSpeaker

/// `susi location get|set PLACE|clear`: where the speaker is, for SUSI's chat.json.
enum LocationCommand: Command {
    static let name = "location"
    static let summary = "where the speaker is, sent to SUSI (weather, local answers)"
    static let usage = """
          susi location get           the location.* keys
          susi location set PLACE     a city, looked up offline in GeoNames' cities over
                                      15,000 people (`make deps`): "Berlin", "Portland, US",
                                      "Portland, OR", "Portland, Maine", "Lima, Peru"; of
                                      several, the largest (it says so); or
                                      LATITUDE,LONGITUDE in degrees ("52.52,13.40")
          susi location clear         send no location
        """

    static func run(_ arguments: inout ArgumentParser, _ context: CommandContext) throws {
        let action = try arguments.action("get", "set", "clear")
        switch action {
        case "get":
            try arguments.finish()
            context.print(LocationSetting.describe(try context.store.loadOrCreate().location))
        case "set":
            let words = [try arguments.required("PLACE")] + (try arguments.words())
            try arguments.finish()
            _ = try context.store.loadOrCreate()
            let outcome = try LocationSetting.apply(
                words.joined(separator: " "), store: context.store,
                gazetteer: LocationSetting.gazetteer(environment: context.environment))
            context.print(outcome.description)
        default:
            try arguments.finish()
            _ = try context.store.loadOrCreate()
            context.print(LocationSetting.describe(try LocationSetting.clear(store: context.store).location))
        }
    }
}
