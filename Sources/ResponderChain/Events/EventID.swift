import Synchronization

/// The identifier of one send: the same at every hop of that event, different for every send,
/// also across processes and restarts, so that a store can key posts by it.
///
/// Tracers use it to tie the records of one event together, also across posted (queued) delivery.
///
/// An identifier has two parts: the ``epoch`` of the process that made it (a random number drawn
/// once per process, the first time the process needs one) and a ``sequence`` number that counts
/// the sends of that process from 1. Two processes, or two runs of one program, draw different
/// epochs (the chance that two draws agree is 2⁻⁶⁴), so their identifiers never meet. A store
/// writes both parts and reads them back with ``init(epoch:sequence:)``:
///
/// ```swift
/// let row = (epoch: id.epoch, sequence: id.sequence)   // two 64-bit columns
/// let same = EventID(epoch: row.epoch, sequence: row.sequence)
/// ```
///
/// - ``description`` is the short form, `#42`: the sequence alone, for logs and traces read
///   within one run.
/// - ``debugDescription`` is the full form, `5f1c09d2e4b7a836#42` (the epoch in 16 hexadecimal
///   digits, then the short form): unique across processes, for anything kept or compared
///   beyond one run. ``init(debugDescription:)`` reads it back.
///
/// Identifiers are ordered by epoch, then by sequence. Within one process that is the order in
/// which sends began; between the identifiers of two processes the order is total (sorting
/// works) but means nothing, neither which process started first nor which send came first.
public struct EventID: Hashable, Sendable, Comparable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The part shared by every identifier one process makes: a random number drawn once per
    /// process, never 0 (an epoch of 0 is free for identifiers built by hand, in tests).
    public let epoch: UInt64

    /// The part that tells the sends of one process apart: 1 for its first, then increasing in
    /// the order its sends begin.
    public let sequence: UInt64

    /// The identifier with these two parts, as a store wrote them (``epoch``, ``sequence``).
    public init(epoch: UInt64, sequence: UInt64) {
        self.epoch = epoch
        self.sequence = sequence
    }

    /// A new identifier, unique across processes (for a post a store's outbox writes, say).
    public init() {
        self = .next()
    }

    /// This process's epoch: drawn once, the first time an identifier is made, and never
    /// changed. (A lazily initialised constant, not mutable state.)
    private static let processEpoch = drawEpoch(using: SystemRandomNumberGenerator())

    /// The number of identifiers this process has made.
    private static let counter = Atomic<UInt64>(0)

    /// An epoch drawn from `generator`: its next number, or 1 for 0 (one number, no rejection
    /// loop, so that it ends whatever the generator yields).
    static func drawEpoch(using generator: consuming some RandomNumberGenerator) -> UInt64 {
        max(generator.next(), 1)
    }

    /// A new identifier, unique across processes: this process's epoch and its next sequence
    /// number.
    static func next() -> EventID {
        EventID(epoch: processEpoch, sequence: counter.wrappingAdd(1, ordering: .relaxed).newValue)
    }

    /// Orders identifiers by epoch, then by sequence: within one process, by the moment their
    /// sends began; across processes, in an order that is total but means nothing.
    public static func < (lhs: EventID, rhs: EventID) -> Bool {
        (lhs.epoch, lhs.sequence) < (rhs.epoch, rhs.sequence)
    }

    /// The short form, `#42`: the sequence alone, unambiguous within one process's run.
    public var description: String { "#\(sequence)" }

    /// The full form, `5f1c09d2e4b7a836#42`: the epoch in 16 lowercase hexadecimal digits, then
    /// the short form. Unique across processes; ``init(debugDescription:)`` reads it back.
    public var debugDescription: String {
        let hex = String(epoch, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex + description
    }

    /// The identifier a full form (``debugDescription``) names, or `nil` if `text` is not one:
    /// 16 hexadecimal digits, `#`, a decimal number.
    ///
    /// ```swift
    /// let id = EventID(debugDescription: "5f1c09d2e4b7a836#42")
    /// // id?.epoch == 0x5f1c09d2e4b7a836, id?.sequence == 42
    /// ```
    public init?(debugDescription text: some StringProtocol) {
        let parts = text.split(separator: "#", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 16, parts[0].allSatisfy(\.isHexDigit),
            !parts[1].isEmpty, parts[1].allSatisfy({ ("0"..."9").contains($0) }),
            let epoch = UInt64(parts[0], radix: 16), let sequence = UInt64(parts[1])
        else { return nil }
        self.init(epoch: epoch, sequence: sequence)
    }
}
