// Helpers the pointer storms share: reading a `UIFixtures.RecordingView` log by pointer, and
// waiting, without sleeping, until a storm's input has come to rest.

/// The pointer entries of `log` (a ``UIFixtures/RecordingView`` log, lines such as `began 3`)
/// grouped by pointer: each pointer with its phases in order, pointers in the order they first
/// appear. Lines of another form (`keyDown …`) are skipped.
func phasesByPointer(in log: [String]) -> [(pointer: String, phases: [String])] {
    var entries: [String: [String]] = [:]
    var order: [String] = []
    for line in log {
        let parts = line.split(separator: " ")
        guard parts.count == 2 else { continue }
        let pointer = String(parts[1])
        if entries[pointer] == nil { order.append(pointer) }
        entries[pointer, default: []].append(String(parts[0]))
    }
    return order.map { ($0, entries[$0] ?? []) }
}

/// Counts the moments at which a storm's input comes to rest (a dispatch finished, or a handler
/// parked), so that the storm does one thing at a time and waits for it without sleeping.
@MainActor
final class Settlements {
    /// How many times the input came to rest so far.
    private(set) var count = 0
    private var waiters: [(target: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// The input came to rest once more.
    func settle() {
        count += 1
        let ready = waiters.filter { $0.target <= count }
        waiters.removeAll { $0.target <= count }
        for waiter in ready { waiter.continuation.resume() }
    }

    /// Returns once the input has come to rest `target` times.
    func wait(for target: Int) async {
        guard count < target else { return }
        await withCheckedContinuation { waiters.append((target, $0)) }
    }
}
