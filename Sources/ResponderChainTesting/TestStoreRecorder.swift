import ResponderChain

/// The records of a ``TestStore``: every ending of a send or post through its system, read from
/// two observation streams the recorder opens when the store is made, and the store's trace.
///
/// The streams are read only here, on this actor, and only while they hold unread elements: a
/// stream's `next` then returns at once, without suspending, so one read of both streams
/// (``sync()``) is never interleaved with another. The dead letters are read before the outcomes:
/// a send's dead letter is published before its outcome, so an outcome read finds its letter.
actor TestStoreRecorder {
    /// Large enough that a test never drops one; a drop is reported by `finish`.
    private static let capacity = 1 << 20

    private let outcomes: ObservationStream<EventSystem.FinishedSend>
    private let deadLetters: ObservationStream<DeadLetter>
    /// Every ending read so far, in the order first read.
    private(set) var endings: [RecordedEnding] = []
    /// Where the last ending of each event is in ``endings``.
    private var positions: [EventID: Int] = [:]
    /// The events sent through ``TestStore/send(_:from:options:sourceLocation:)``.
    private var sentThroughStore: Set<EventID> = []
    private var lines: [String] = []
    /// The store's own number of each event identifier met in the trace.
    private var localNumbers: [Substring: Int] = [:]

    init(system: EventSystem) {
        outcomes = system.observeOutcomes(buffering: .keepingOldest(Self.capacity))
        deadLetters = system.observeDeadLetters(buffering: .keepingOldest(Self.capacity))
    }

    /// The number of endings the recorder's streams dropped because they were full.
    var droppedCount: Int { outcomes.droppedCount + deadLetters.droppedCount }

    /// Reads every element the streams hold now into ``endings``.
    func sync() async {
        await syncDeadLetters()
        while outcomes._unreadCount > 0 {
            var iterator = outcomes.makeAsyncIterator()
            guard let finished = await iterator.next(isolation: self) else { break }
            // Its dead letter, if it has one, was published before it: read it first, so that
            // the letter is recorded (and traced) before the outcome however the reads fall.
            await syncDeadLetters()
            record(finished)
        }
    }

    private func syncDeadLetters() async {
        while deadLetters._unreadCount > 0 {
            var iterator = deadLetters.makeAsyncIterator()
            guard let letter = await iterator.next(isolation: self) else { break }
            record(letter)
        }
    }

    private func record(_ letter: DeadLetter) {
        note(
            "dead letter \(letter.outcome.eventID) \(letter.event.traceName) from \(letter.source): \(letter.outcome)"
        )
        record(letter, at: \.deadLetter, of: letter.outcome.eventID) {
            RecordedEnding(eventID: $0, deadLetter: letter)
        }
    }

    private func record(_ finished: EventSystem.FinishedSend) {
        note("outcome \(finished)")
        record(finished, at: \.finished, of: finished.outcome.eventID) {
            RecordedEnding(eventID: $0, finished: finished)
        }
    }

    /// Records `part` of the ending of `id`: in the ending already recorded for `id` if that one
    /// lacks it, else in a new ending (`made`), in recording order.
    private func record<Part>(
        _ part: Part, at path: WritableKeyPath<RecordedEnding, Part?>, of id: EventID,
        made: (EventID) -> RecordedEnding
    ) {
        if let position = positions[id], endings[position][keyPath: path] == nil {
            endings[position][keyPath: path] = part
        } else {
            positions[id] = endings.count
            endings.append(made(id))
        }
        if sentThroughStore.contains(id) { endings[positions[id]!].sentThroughStore = true }
    }

    /// Marks the ending of `id` asserted: the store sent it and returned its outcome.
    func assertBySend(_ id: EventID) async {
        sentThroughStore.insert(id)
        await sync()
        if let position = positions[id] { endings[position].sentThroughStore = true }
    }

    /// The events whose endings are recorded, in order.
    func endedIDs() async -> [EventID] {
        await sync()
        return endings.map(\.eventID)
    }

    /// Whether the outcome of `id` has been recorded.
    func hasEnded(_ id: EventID) async -> Bool {
        await sync()
        return positions[id].map { endings[$0].finished != nil } ?? false
    }

    /// The outcomes not taken by a receive yet, with their places, in order.
    func unreceivedOutcomes() async -> [(position: Int, finished: EventSystem.FinishedSend)] {
        await sync()
        return endings.indices.compactMap { position in
            let ending = endings[position]
            guard !ending.outcomeReceived, !ending.sentThroughStore, let finished = ending.finished else {
                return nil
            }
            return (position, finished)
        }
    }

    /// The dead letters not taken by a receive yet, with their places, in order.
    ///
    /// A letter comes before its ending's outcome; with `complete`, only the letters whose
    /// outcomes have come too, so that a receive returns once the ending is whole (and the trace
    /// has both, in the same order on every run).
    func unreceivedDeadLetters(complete: Bool) async -> [(position: Int, letter: DeadLetter)] {
        await sync()
        return endings.indices.compactMap { position in
            let ending = endings[position]
            guard !ending.deadLetterReceived, let letter = ending.deadLetter else { return nil }
            guard !complete || ending.finished != nil else { return nil }
            return (position, letter)
        }
    }

    /// Takes the outcome at `position`; `false` if another receive took it meanwhile.
    func takeOutcome(at position: Int) -> Bool {
        guard !endings[position].outcomeReceived else { return false }
        endings[position].outcomeReceived = true
        return true
    }

    /// Takes the dead letter at `position`; `false` if another receive took it meanwhile.
    func takeDeadLetter(at position: Int) -> Bool {
        guard !endings[position].deadLetterReceived else { return false }
        endings[position].deadLetterReceived = true
        return true
    }

    /// Takes the outcome of `id` (a ticket's), if it has been recorded and not taken.
    func takeOutcome(of id: EventID) async -> Outcome? {
        await sync()
        guard
            let position = endings.indices.first(where: {
                endings[$0].eventID == id && endings[$0].finished != nil && !endings[$0].outcomeReceived
            })
        else { return nil }
        endings[position].outcomeReceived = true
        return endings[position].outcome
    }

    /// The endings nothing asserted, in order.
    func unasserted() async -> [RecordedEnding] {
        await sync()
        return endings.filter { !$0.isAsserted }
    }

    /// Marks every ending recorded so far asserted; returns those that were not.
    @discardableResult
    func assertAll() async -> [RecordedEnding] {
        await sync()
        let skipped = endings.filter { !$0.isAsserted }
        for position in endings.indices where !endings[position].isAsserted {
            endings[position].outcomeReceived = true
            endings[position].deadLetterReceived = true
        }
        return skipped
    }

    /// The trace, after reading what the streams hold.
    func syncedTrace() async -> [String] {
        await sync()
        return lines
    }

    /// Appends `line` to the trace, with each event identifier (`#12`) replaced by the store's
    /// own number for it.
    func note(_ line: String) {
        lines.append(localized(line))
    }

    private func localized(_ line: String) -> String {
        var result = ""
        var rest = line[...]
        while let hash = rest.firstIndex(of: "#") {
            result += rest[..<hash]
            let digits = rest[rest.index(after: hash)...].prefix { $0.isASCII && $0.isNumber }
            if digits.isEmpty {
                result += "#"
                rest = rest[rest.index(after: hash)...]
                continue
            }
            let number = localNumbers[digits] ?? (localNumbers.count + 1)
            localNumbers[digits] = number
            result += "#\(number)"
            rest = rest[digits.endIndex...]
        }
        return result + rest
    }
}
