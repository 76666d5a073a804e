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
                path: store.state.history, isPrivate: { (try? store.load())?.privacy.mode ?? false }),
            timers: PlannedAnswers(path: store.state.timers),
            examples: { examples.value }, locate: LocationSetting.locator(store: store, environment: environment))
        dashboard.lists = NamedLists(path: store.state.lists)
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
