import Synchronization

/// A lock-free single-producer, single-consumer ring buffer of int16 samples.
///
/// One thread (the audio callback) calls `write`; one other thread calls `read`,
/// `discardAll` and `available`. `write` never allocates, locks or waits, so it is safe on a
/// real-time audio thread. A write that does not fit is dropped whole (so interleaved frames
/// stay aligned) and counted in `overflowCount`.
///
/// Recent audio already read is not kept here: the voice pipeline keeps the one history of its
/// input (`AudioHistory`), whatever the source.
///
/// It is `@unchecked Sendable` because its storage is shared between exactly two threads
/// whose regions never overlap: the producer only writes slots in the free region
/// `[writeIndex, readIndex + capacity)`, the consumer only reads slots in
/// `[readIndex, writeIndex)`, and each side publishes its index with a
/// release store that the other side acquires before touching the slots.
public final class RingBuffer: @unchecked Sendable {
    /// Samples that can be held unread.
    public let capacity: Int

    private let storage: UnsafeMutableBufferPointer<Int16>
    /// Total samples ever written; only the producer stores it.
    private let writeIndex = Atomic<Int>(0)
    /// Total samples ever read or discarded; only the consumer stores it.
    private let readIndex = Atomic<Int>(0)
    private let overflows = Atomic<Int>(0)

    /// Preallocates room for `capacity` unread samples.
    ///
    /// A negative capacity is treated as zero; a zero capacity drops every write.
    public init(capacity: Int) {
        self.capacity = max(capacity, 0)
        storage = .allocate(capacity: max(self.capacity, 1))
        storage.initialize(repeating: 0)
    }

    deinit {
        storage.deallocate()
    }

    /// Total slots.
    private var slots: Int { storage.count }

    // MARK: Producer

    /// Appends `samples` if all of them fit; otherwise drops them and counts them as overflow.
    ///
    /// Producer thread only. Never allocates, locks or blocks.
    /// - Returns: whether the samples were stored.
    @discardableResult
    public func write(_ samples: UnsafeBufferPointer<Int16>) -> Bool {
        let count = samples.count
        guard count > 0 else { return true }
        let write = writeIndex.load(ordering: .relaxed)
        let read = readIndex.load(ordering: .acquiring)
        guard write - read + count <= capacity, let source = samples.baseAddress, let base = storage.baseAddress else {
            overflows.add(count, ordering: .relaxed)
            return false
        }
        let start = write % slots
        let firstPart = min(count, slots - start)
        (base + start).update(from: source, count: firstPart)
        if firstPart < count {
            base.update(from: source + firstPart, count: count - firstPart)
        }
        writeIndex.store(write + count, ordering: .releasing)
        return true
    }

    /// Appends an array of samples; same rules as the buffer-pointer `write(_:)`.
    @discardableResult
    public func write(_ samples: [Int16]) -> Bool {
        samples.withUnsafeBufferPointer { write($0) }
    }

    // MARK: Consumer

    /// Samples written and not yet read.
    public var available: Int {
        writeIndex.load(ordering: .acquiring) - readIndex.load(ordering: .relaxed)
    }

    /// Samples dropped because the buffer was full.
    public var overflowCount: Int {
        overflows.load(ordering: .relaxed)
    }

    /// Total samples ever read or discarded: the stream position of the next `read`.
    public var readPosition: Int {
        readIndex.load(ordering: .relaxed)
    }

    /// Moves up to `buffer.count` unread samples into `buffer`.
    ///
    /// Consumer thread only.
    /// - Returns: the number of samples copied.
    public func read(into buffer: UnsafeMutableBufferPointer<Int16>) -> Int {
        let read = readIndex.load(ordering: .relaxed)
        let write = writeIndex.load(ordering: .acquiring)
        let count = min(write - read, buffer.count)
        guard count > 0, let destination = buffer.baseAddress else { return 0 }
        copy(from: read, count: count, to: destination)
        readIndex.store(read + count, ordering: .releasing)
        return count
    }

    /// Reads up to `maxCount` unread samples, rounded down to a multiple of `multiple` (use the
    /// channel count so interleaved frames are never split).
    ///
    /// Consumer thread only.
    public func read(maxCount: Int, multiple: Int = 1) -> [Int16] {
        let step = max(multiple, 1)
        let count = min(available, max(maxCount, 0)) / step * step
        guard count > 0 else { return [] }
        return [Int16](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = read(into: UnsafeMutableBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    /// Marks every unread sample as read and returns how many there were.
    ///
    /// Consumer thread only.
    @discardableResult
    public func discardAll() -> Int {
        let read = readIndex.load(ordering: .relaxed)
        let write = writeIndex.load(ordering: .acquiring)
        readIndex.store(write, ordering: .releasing)
        return write - read
    }

    private func copy(from position: Int, count: Int, to destination: UnsafeMutablePointer<Int16>) {
        guard let base = storage.baseAddress else { return }
        let start = position % slots
        let firstPart = min(count, slots - start)
        destination.update(from: base + start, count: firstPart)
        if firstPart < count {
            (destination + firstPart).update(from: base, count: count - firstPart)
        }
    }
}
