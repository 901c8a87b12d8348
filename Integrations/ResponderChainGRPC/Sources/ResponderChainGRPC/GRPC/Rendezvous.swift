import ResponderChain

/// Rendezvous (highest-random-weight) hashing: each sender ranks the backends by a weight drawn
/// from the pair (sender, backend) and goes to the first of its ranking that is up.
///
/// The weights depend on nothing but the two names, so a sender's ranking is the same in every
/// process and at every call, whatever order the backends are listed in. Removing a backend moves
/// only the senders whose first choice it was (each to its second choice); adding one takes
/// senders only to it. The hash is FNV-1a, finished with SplitMix64's mix: fixed, not seeded per
/// process as `Hasher` is.
enum Rendezvous {
    /// The weight of `backend` for `sender`.
    static func weight(of backend: String, for sender: RemoteSenderKey) -> UInt64 {
        mix(hash(backend) ^ mix(sender.value))
    }

    /// `backends` in `sender`'s order of preference: by falling weight (ties by name).
    static func ranking(of backends: [String], for sender: RemoteSenderKey) -> [String] {
        backends
            .map { (name: $0, weight: weight(of: $0, for: sender)) }
            .sorted { $0.weight != $1.weight ? $0.weight > $1.weight : $0.name < $1.name }
            .map(\.name)
    }

    /// The 64-bit FNV-1a hash of `text`'s UTF-8, mixed.
    static func hash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return mix(hash)
    }

    /// SplitMix64's finishing mix: every bit of the input moves about half the output's.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9e37_79b9_7f4a_7c15
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}

/// Which backends are down, and until when: a backend that a call found unreachable is down for
/// a backoff (`initialBackoff`, doubled at each unreachable in a row up to `maxBackoff`), then
/// tried again by the next call that would go to it. Any answer from it brings it up at once.
/// Its instants are on the transport's event system's clock.
struct BackendHealth {
    let initialBackoff: Duration
    let maxBackoff: Duration
    private var down: [String: (until: EventSystem.Instant, failures: Int)] = [:]

    init(initialBackoff: Duration, maxBackoff: Duration) {
        self.initialBackoff = initialBackoff
        self.maxBackoff = maxBackoff
    }

    /// Whether `backend` is down at `now`.
    func isDown(_ backend: String, at now: EventSystem.Instant) -> Bool {
        down[backend].map { now < $0.until } ?? false
    }

    /// How many unreachable calls in a row `backend` has had.
    func failures(of backend: String) -> Int { down[backend]?.failures ?? 0 }

    /// `ranking` with the backends down at `now` moved to its end, each part in its order.
    func attemptOrder(_ ranking: [String], at now: EventSystem.Instant) -> [String] {
        ranking.filter { !isDown($0, at: now) } + ranking.filter { isDown($0, at: now) }
    }

    /// A call found `backend` unreachable at `now`: it is down for the next backoff.
    mutating func markUnreachable(_ backend: String, at now: EventSystem.Instant) {
        let failures = (down[backend]?.failures ?? 0) + 1
        var backoff = initialBackoff
        for _ in 1..<failures where backoff < maxBackoff { backoff *= 2 }
        down[backend] = (now + min(backoff, maxBackoff), failures)
    }

    /// `backend` answered: it is up.
    mutating func markAnswered(_ backend: String) {
        down[backend] = nil
    }

    /// Forgets the backends not in `backends` (no longer resolved).
    mutating func keep(only backends: Set<String>) {
        down = down.filter { backends.contains($0.key) }
    }
}
