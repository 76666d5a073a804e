import SusiCore

/// The pipeline's one record of recent input, in `SamplePosition.format`, placed by position.
///
/// The wake word's lead-in, the start of a command said in one breath with the wake word, and
/// a command's whole audio for the open-question pass all come from here. Keeps the last
/// `capacity` frames in a circle: the storage grows as audio arrives until it holds `capacity`
/// frames, then the oldest are overwritten, so a speaker that listens for hours holds no more
/// than that. Value type, used from the pipeline's thread.
struct AudioHistory {
    /// Frames kept.
    let capacity: Int
    /// Frame `f` of the input, while kept, is at `storage[f % capacity]`.
    private var storage: [Int16] = []
    /// Frames appended since the input began.
    private var appended = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        // Reserved, not written: pages are only touched as audio arrives.
        storage.reserveCapacity(self.capacity)
    }

    /// Where the input heard so far ends: the position of the next frame to arrive.
    var end: SamplePosition { SamplePosition(frames: appended) }

    /// The oldest frame still kept.
    private var first: Int { appended - storage.count }

    /// Adds the next frames of the input (mono, `SamplePosition.format`).
    mutating func append(_ samples: [Int16]) {
        var rest = samples[...]
        if rest.count >= capacity {
            // Only the end of a chunk as long as the whole history is kept; it replaces all of it.
            appended += rest.count - capacity
            rest = rest.suffix(capacity)
            storage += repeatElement(0, count: capacity - storage.count)
        }
        if storage.count < capacity {
            // Still filling: nothing was dropped yet, so frame `f` is `storage[f]`.
            let filling = rest.prefix(capacity - storage.count)
            storage.append(contentsOf: filling)
            appended += filling.count
            rest = rest.dropFirst(filling.count)
        }
        while !rest.isEmpty {
            let start = appended % capacity
            let part = rest.prefix(capacity - start)
            storage.replaceSubrange(start..<start + part.count, with: part)
            appended += part.count
            rest = rest.dropFirst(part.count)
        }
    }

    /// The frames from `position` to `end` (the end of the input when nil), clamped to what
    /// is kept.
    func samples(from position: SamplePosition, to end: SamplePosition? = nil) -> [Int16] {
        let lower = min(max(position.frames, first), appended)
        let upper = min(max(end?.frames ?? appended, lower), appended)
        guard lower < upper else { return [] }
        let start = lower % capacity
        let stop = start + (upper - lower)
        guard stop > capacity else { return Array(storage[start..<stop]) }
        return Array(storage[start...]) + storage[..<(stop - capacity)]
    }
}
