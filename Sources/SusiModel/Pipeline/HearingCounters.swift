import Foundation
import SusiCore
import Synchronization

/// Today's wake figures for the web page, counted from the pipeline's events: how often the
/// speaker woke, and how many of those wakes were likely false (nothing was said after them).
///
/// A wake counts as likely false when its interaction ends (`idle`) without a word heard: no
/// transcript, or an empty one (`stt-no-speech`). The counts start again at local midnight and
/// live in memory only. Thread-safe.
public final class HearingCounters: EventSink {
    /// The figures of one day.
    public struct Figures: Sendable, Equatable, Encodable {
        /// The day counted, `yyyy-MM-dd` in local time.
        public var day: String
        /// Wakes today.
        public var wakes: Int
        /// Wakes after which nothing was said.
        public var likelyFalseWakes: Int
        /// Wakes after which words were heard.
        public var commandsHeard: Int

        enum CodingKeys: String, CodingKey {
            case day, wakes
            case likelyFalseWakes = "likely_false_wakes"
            case commandsHeard = "commands_heard"
        }
    }

    private struct State {
        var figures: Figures
        /// Whether the open interaction heard words; nil outside an interaction.
        var heardWords: Bool?
    }

    private let clock: @Sendable () -> Date
    private let day: @Sendable (Date) -> String
    private let state: Mutex<State>

    /// Counters for the day of `clock()`, as `day` writes it (`yyyy-MM-dd`; by default in the
    /// local time zone, without loading ICU as a Foundation calendar would).
    public init(
        clock: @escaping @Sendable () -> Date = Date.init,
        day: @escaping @Sendable (Date) -> String = Timestamp.localDay
    ) {
        self.clock = clock
        self.day = day
        state = Mutex(State(figures: Figures(day: "", wakes: 0, likelyFalseWakes: 0, commandsHeard: 0)))
        state.withLock { rollOver(&$0) }
    }

    /// Today's figures so far.
    public var today: Figures {
        state.withLock { state in
            rollOver(&state)
            return state.figures
        }
    }

    public func emit(_ event: PipelineEvent) {
        state.withLock { state in
            rollOver(&state)
            switch event.kind {
            case .wake:
                state.figures.wakes += 1
                state.heardWords = false
            case .transcript(let text) where state.heardWords != nil:
                if !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { state.heardWords = true }
            case .idle:
                guard let heard = state.heardWords else { return }
                if heard { state.figures.commandsHeard += 1 } else { state.figures.likelyFalseWakes += 1 }
                state.heardWords = nil
            default:
                break
            }
        }
    }

    private func rollOver(_ state: inout State) {
        let day = day(clock())
        guard day != state.figures.day else { return }
        state.figures = Figures(day: day, wakes: 0, likelyFalseWakes: 0, commandsHeard: 0)
    }
}
