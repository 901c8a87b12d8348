// Helpers the pointer storms share: reading a `UIFixtures.RecordingView` log by pointer, waiting,
// without sleeping, until a storm's input has come to rest, the driver of the storms whose
// handlers park events mid-flight, and the loop that plays a storm for each of 300 seeds.
import ResponderChainTesting
import ResponderUI

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

/// What is wrong with `log` (a ``UIFixtures/RecordingView`` log of views that handle every
/// pointer event): each pointer's entries must read `began`, any number of `moved`, then exactly
/// one `ended` or `cancelled`, and nothing after it. Empty when the log is right.
func sequenceProblems(in log: [String], of view: String) -> [String] {
    var problems: [String] = []
    for (pointer, phases) in phasesByPointer(in: log) {
        let terminals = phases.filter { $0 == "ended" || $0 == "cancelled" }.count
        let wellFormed =
            phases.first == "began" && phases.dropFirst().dropLast().allSatisfy { $0 == "moved" }
            && terminals == 1 && (phases.last == "ended" || phases.last == "cancelled")
        if !wellFormed {
            problems.append("\(view), pointer \(pointer): \(phases.joined(separator: ", "))")
        }
    }
    return problems
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

/// The driver of a storm whose handlers may park pointer events mid-flight: it sends random
/// input one step at a time over a ``RandomViewTree``, waits until each step finished or parked,
/// opens parked gates in a random order, changes the tree, and at the end detaches it and lets
/// every parked event go.
@MainActor
final class ParkingStormDriver {
    /// The grid, the generator and the script.
    let tree: RandomViewTree
    /// The id of the next pointer to begin: each sequence has its own.
    private var nextPointer = 1
    /// The gates of the handlers parked now.
    private var parked: [Gate] = []
    /// When the input came to rest.
    private let settlements = Settlements()
    /// How many times the input must have come to rest once the current step is over.
    private var expectedSettlements = 0

    init(tree: RandomViewTree) {
        self.tree = tree
    }

    /// Rigs every view of the grid: it handles or passes pointer events (chosen by the seed), runs
    /// `onPointer` from inside its pointer methods, and has a pointer handler that reports the view
    /// each sequence's `began` entered at hop 1 to `bound` (by pointer), runs `inHandler`, then
    /// parks the event `parkChance` percent of the time. The window's cancellations are not
    /// parked: the driver waits only for what its own steps send.
    func rig(
        parkChance: Int,
        bound: @escaping @MainActor @Sendable (_ pointer: String, _ view: String) -> Void,
        onPointer: @escaping @MainActor (PointerEvent) -> Void,
        inHandler: @escaping @MainActor @Sendable (PointerEvent) -> Void = { _ in }
    ) {
        for view in tree.views {
            view.pointerDisposition = tree.random.chance(40) ? .handled : .pass
            view.onPointer = onPointer
            view.strategies.on(PointerEvent.self) { [unowned self] view, pointer, context in
                if pointer.phase == .began, context.hop == 1 {
                    bound("\(pointer.pointer.rawValue)", view.label)
                }
                inHandler(pointer)
                if pointer.phase != .cancelled, tree.random.chance(parkChance) {
                    try await park(pointer, at: view)
                }
                return .pass
            }
        }
    }

    /// Drops the views' hooks and handlers (they hold the tree and the storm).
    func tearDown() {
        for view in tree.views {
            view.onPointer = nil
            view.strategies.remove(PointerEvent.self)
        }
    }

    /// Parks the running handler on a gate of its own, from a handler of `view`, until the
    /// driver opens it; the step that delivered the event is over meanwhile.
    func park(_ pointer: PointerEvent, at view: View) async throws {
        let gate = Gate()
        parked.append(gate)
        tree.script.append("\(pointer.phase) \(pointer.pointer.rawValue) parks at \(view.label)")
        settlements.settle()
        try await gate.pass()
    }

    /// Random input, gate openings and direct tree changes, with `extra` (given an active
    /// pointer) as one more step while pointers are active; then a final detach that cancels
    /// whatever is left, and every parked event let go.
    func run(extra: ((PointerID) -> Void)? = nil) async {
        for _ in 0..<tree.random.int(in: 4...16) {
            let active = tree.scene.window.activePointers
            var choices = [0, 1]
            if !active.isEmpty {
                choices += [2, 2, 3, 4]
                if extra != nil { choices += [7, 7, 7] }
            }
            if !parked.isEmpty { choices += [5, 5, 5] }
            choices.append(6)
            switch tree.random.pick(choices) {
            case 0, 1:
                let pointer = PointerID(nextPointer)
                nextPointer += 1
                await dispatch(.began, at: tree.randomPlace(), pointer: pointer)
            case 2:
                await dispatch(.moved, at: Point(x: 1, y: 1), pointer: tree.random.pick(active))
            case 3:
                await dispatch(.ended, at: Point(x: 1, y: 1), pointer: tree.random.pick(active))
            case 4:
                await dispatch(.cancelled, at: Point(x: 1, y: 1), pointer: tree.random.pick(active))
            case 5:
                await openOne()
            case 7:
                extra?(tree.random.pick(active))
            default:
                tree.interfere()
            }
        }
        tree.finalDetach()
        while !parked.isEmpty { await openOne() }
    }

    /// Dispatches `phase` from a task of its own and waits until it finished or parked.
    private func dispatch(_ phase: PointerPhase, at location: Point, pointer: PointerID) async {
        tree.script.append("\(phase) \(pointer.rawValue)")
        expectedSettlements += 1
        let window = tree.scene.window
        let settlements = settlements
        Task { @MainActor in
            await window.dispatch(phase, at: location, pointer: pointer)
            settlements.settle()
        }
        await settlements.wait(for: expectedSettlements)
    }

    /// Opens one parked gate, at random, and waits until its event finished or parked again.
    private func openOne() async {
        let gate = parked.remove(at: tree.random.int(in: 0...(parked.count - 1)))
        tree.script.append("open")
        expectedSettlements += 1
        gate.open()
        await settlements.wait(for: expectedSettlements)
    }
}

/// One seeded run of random pointer input that says what went wrong.
@MainActor
protocol SeededStorm: AnyObject {
    init(seed: UInt64)
    /// What happened, in order, for failure messages.
    var script: [String] { get }
    func run() async
    /// What is wrong after the run; empty when it was right.
    func problems() -> [String]
    /// Takes down what the run left up.
    func tearDown()
}

/// Plays a storm of type `Storm` for each seed from 1 to 300 in turn: runs it, hands it to
/// `afterRun`, reads its problems, then tears it down. Returns one line per storm that had
/// problems: its seed, its problems and the script that led to them.
@MainActor
func failuresOfStorms<Storm: SeededStorm>(
    _: Storm.Type, afterRun: (Storm) -> Void = { _ in }
) async -> [String] {
    var failures: [String] = []
    for seed in UInt64(1)...300 {
        let storm = Storm(seed: seed)
        await storm.run()
        afterRun(storm)
        let problems = storm.problems()
        if !problems.isEmpty {
            failures.append("seed \(seed): \(problems) after \(storm.script)")
        }
        storm.tearDown()
    }
    return failures
}
