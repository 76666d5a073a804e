import Foundation
import SusiBrain
import SusiCore
import SusiModel
import SusiPlayer
import SusiServer
import Synchronization

/// The web page's dashboard parts the speaker keeps: built once per runtime (or per
/// `susi setup serve`), fed by the pipeline's events.
public enum SpeakerDashboards {
    /// Where the last interactions are kept: `history.json` beside the config file.
    public static func historyPath(store: ConfigStore) -> String {
        store.directory + "/history.json"
    }

    /// Where the timers, alarms and reminders are kept: `timers.json` beside the config file.
    public static func timersPath(store: ConfigStore) -> String {
        store.directory + "/timers.json"
    }

    /// Where the named lists (shopping, to-do) are kept: `lists.json` beside the config file.
    public static func listsPath(store: ConfigStore) -> String {
        store.directory + "/lists.json"
    }

    /// The owner's music library index (`MusicLibrary`): `music-library.json` beside the config file.
    public static func musicLibrary(store: ConfigStore) -> MusicLibrary {
        MusicLibrary(indexPath: store.directory + "/music-library.json")
    }

    /// Every `!example` of `brain`'s skills, in skill order, each once.
    public static func examples(of brain: Brain) -> [ExampleRequest] {
        var seen = Set<String>()
        return brain.skills.flatMap { skill in
            skill.intents.flatMap { intent in
                intent.examples.compactMap { example -> ExampleRequest? in
                    guard seen.insert(example.query.lowercased()).inserted else { return nil }
                    return ExampleRequest(skill: skill.name, query: example.query)
                }
            }
        }
    }

    /// The dashboard of a server without a voice pipeline (`susi setup serve`): the timers,
    /// lists and history files beside the config, and the bundled skills' examples (read on first
    /// use). No events, level or wake figures. The timers and lists are read when the server
    /// starts: it serves when `susi run` does not (they share `setup.port`), so no speaker owns
    /// `timers.json` or `lists.json` meanwhile.
    public static func standalone(store: ConfigStore, environment: [String: String], logger: Logger) -> SpeakerDashboard {
        let examples = LazyExamples(environment: environment, logger: logger)
        var dashboard = SpeakerDashboard(
            history: InteractionLog(
                path: historyPath(store: store), isPrivate: { (try? store.load())?.privacy.mode ?? false }),
            timers: PlannedAnswers(path: timersPath(store: store)),
            examples: { examples.value }, locate: LocationSetting.locator(store: store, environment: environment))
        dashboard.lists = NamedLists(path: listsPath(store: store))
        dashboard.wakeEngine = WakePhraseCheck.pageLine(store: store, environment: environment)
        return dashboard
    }
}

/// The bundled skills' examples, loaded on first use and kept.
private final class LazyExamples: Sendable {
    private let environment: [String: String]
    private let logger: Logger
    private let loaded = Mutex<[ExampleRequest]?>(nil)

    init(environment: [String: String], logger: Logger) {
        self.environment = environment
        self.logger = logger
    }

    var value: [ExampleRequest] {
        loaded.withLock { loaded in
            if let loaded { return loaded }
            let examples = (try? Assembly.brain(environment: environment, logger: logger)).map(SpeakerDashboards.examples) ?? []
            loaded = examples
            return examples
        }
    }
}
