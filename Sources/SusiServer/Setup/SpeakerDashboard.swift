import SusiCore
import SusiModel

/// What the web page shows besides status and settings: the live conversation, the last
/// interactions, running timers, alarms and reminders, the named lists, what can be said, the microphone level and today's wakes.
///
/// Every part is optional: `susi setup serve` runs no voice pipeline, so it has no events,
/// level or wake figures, and its routes answer 503 for them (the page then says so).
public struct SpeakerDashboard: Sendable {
    /// The pipeline's events, for the live view (`/events`).
    public var events: EventBroadcaster?
    /// The last interactions (`/history`).
    public var history: InteractionLog?
    /// Today's wake figures (`/hearing`).
    public var hearing: HearingCounters?
    /// The pipeline's phase and input level (`/level`).
    public var pipeline: PipelineStatus?
    /// Running timers, alarms, reminders and planned answers (`/timers`).
    public var timers: PlannedAnswers?
    /// The named lists, shopping and to-do (`/lists`).
    public var lists: NamedLists?
    /// Sample requests, from the skills' `!example` lines (`/examples`); called per request.
    public var examples: @Sendable () -> [ExampleRequest]
    /// Sets the speaker's location from a city's name or `latitude,longitude` and says what
    /// was set (`POST /location`); nil where it cannot be set.
    public var locate: (@Sendable (String) throws(ConfigError) -> String)?
    /// Which engine wakes on the config's phrase and how well it did in its own check (a
    /// trained head's dev figures, or the keyphrase search's calibration), for `/hearing`;
    /// nil where the speaker cannot tell.
    public var wakeEngine: (@Sendable (Config) -> String)?

    /// A dashboard of the given parts; those left out are reported as unavailable.
    public init(
        events: EventBroadcaster? = nil, history: InteractionLog? = nil, hearing: HearingCounters? = nil,
        pipeline: PipelineStatus? = nil, timers: PlannedAnswers? = nil,
        examples: @escaping @Sendable () -> [ExampleRequest] = { [] },
        locate: (@Sendable (String) throws(ConfigError) -> String)? = nil
    ) {
        self.events = events
        self.history = history
        self.hearing = hearing
        self.pipeline = pipeline
        self.timers = timers
        self.examples = examples
        self.locate = locate
    }
}

/// Something a person can say, and the skill that answers it.
public struct ExampleRequest: Sendable, Equatable, Encodable {
    /// The skill's name as its file or header gives it.
    public var skill: String
    /// The request, as the skill's `!example:` line has it.
    public var query: String

    /// An example of `skill`.
    public init(skill: String, query: String) {
        self.skill = skill
        self.query = query
    }
}
