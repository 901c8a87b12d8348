import Foundation
@testable import ResponderChain
import ResponderChainTesting
/// Test doubles for the concurrency suites, kept in one namespace so they never clash with others.
enum ConcurrencyFixtures {
    /// The `number`th event of sender `sender`.
    struct Numbered: Event, Equatable, CustomStringConvertible {
        let sender: Int
        let number: Int

        /// The number: what a ``Node``'s log shows (`start 0`, `end 0`, …).
        var description: String { "\(number)" }
    }

    struct Boom: Error, Equatable {}

    /// The concurrency suites' responder: the kit's scripted responder. What its handler does
    /// with an event is a ``Behavior`` (one for every event) or, through
    /// ``ScriptedResponder/init(_:parent:root:exclusive:system:nextGate:scripts:otherwise:)``, a
    /// ``Script`` per event number.
    typealias Node = ScriptedResponder
    /// A ``Node`` built with a script per event number.
    typealias Scripted = ScriptedResponder
    /// What a ``Node``'s handler does with an event.
    typealias Behavior = ScriptedResponder.Script
    typealias Script = ScriptedResponder.Script
    typealias Step = ScriptedResponder.Step

    /// `leaf` (passes) → `parked` (parks on `gate`, a new closed one) → `top` (a root that
    /// handles): the chain in which a stop finds a handler parked at hop 2. The park is woken by a
    /// cancellation unless `ignoringCancellation`, in which case the handler handles and lets the
    /// event continue once the gate opens. The three use `system`.
    static func parkedChain(ignoringCancellation: Bool = false, in system: EventSystem = .default) -> (
        gate: Gate, top: Node, parked: Node, leaf: Node
    ) {
        let gate = Gate()
        let top = Node("top", .handle, root: true, system: system)
        let script: Script = ignoringCancellation ? .parkIgnoringCancellation(gate) : .park(gate)
        let parked = Node("parked", script, parent: top, system: system)
        return (gate, top, parked, Node("leaf", .pass, parent: parked, system: system))
    }

    /// A root called `name` in `system` whose handler parks every event on `gate`, a new closed
    /// one: the first event waits there until the test opens the gate, and later posts of the
    /// same sender queue behind it.
    static func parkedRoot(
        _ name: String = "node", in system: EventSystem = EventSystem(), exclusive: Bool = false
    ) -> (gate: Gate, system: EventSystem, node: Node) {
        let gate = Gate()
        return (gate, system, Node(name, .park(gate), root: true, exclusive: exclusive, system: system))
    }

    /// A chain of `count` passing nodes below `top`, returned leaf first.
    static func chain(_ count: Int, below top: Node, behavior: (Int) -> Behavior = { _ in .pass }) -> [Node] {
        var nodes: [Node] = []
        var parent: (any Responder)? = top
        for index in (0..<count).reversed() {
            let node = Node("n\(index)", behavior(index), parent: parent, system: top.eventSystem)
            nodes.insert(node, at: 0)
            parent = node
        }
        return nodes
    }

    /// A system of its own with a recording tracer and a dead-letter recorder, on `clock`.
    struct Rig {
        let tracer = RecordingTracer()
        let letters = DeadLetterRecorder()
        let system: EventSystem

        init(limit: EventSystem.PostingLimit = .default, clock: any Clock<Duration> = ContinuousClock()) {
            system = EventSystem(tracer: tracer, deadLetters: letters.sink, postingLimit: limit, clock: clock)
        }
    }

    /// How many operations a stress test makes: the whole number in the environment variable
    /// `name` when it holds one (the thread-sanitizer run in `.ci/run` asks for fewer), `standard`
    /// otherwise.
    static func stressSize(_ name: String, standard: Int) -> Int {
        ProcessInfo.processInfo.environment[name].flatMap(Int.init) ?? standard
    }

    /// A tracer that only counts finished sends by kind: cheap enough for floods.
    final class OutcomeCounter: Tracer {
        private let counts = Locked<[Outcome.Kind: Int]>([:])

        func record(_ event: TraceEvent) {
            if case .finished(let outcome) = event {
                counts.withLock { $0[outcome.kind, default: 0] += 1 }
            }
        }

        var total: Int { counts.withLock { $0.values.reduce(0, +) } }
        func count(_ kind: Outcome.Kind) -> Int { counts.withLock { $0[kind] ?? 0 } }
    }

    /// The kit's seeded generator, so that "random" suspension points are the same on every
    /// run (a type of this module, for suites that do not import the kit).
    struct SplitMix: Sendable {
        private var generator: SplitMix64
        init(seed: UInt64) { generator = SplitMix64(seed: seed) }
        mutating func next() -> UInt64 { generator.next() }
    }

    /// Returns once the current task is cancelled: a pass through a gate that never opens, which
    /// only the cancellation ends.
    static func waitForCancellation() async {
        try? await Gate().pass()
    }

}

extension ScriptedResponder.Script {
    /// Suspends (`Task.yield`) a number of times chosen by a generator seeded with `seed`, then
    /// passes. Each script has its own generator: give each responder its own script.
    static func suspendRandomly(seed: UInt64) -> Self {
        let random = Locked(ConcurrencyFixtures.SplitMix(seed: seed))
        return Self(
            [
                .perform { _, _ in
                    for _ in 0..<Int(random.withLock { $0.next() } % 3) { await Task.yield() }
                }
            ], then: .pass)
    }

    /// Parks on the gate, ignoring cancellation, then handles and lets the event continue.
    static func parkIgnoringCancellation(_ gate: Gate) -> Self {
        Self([.parkIgnoringStop(gate)], then: .handledAndContinue)
    }

    /// For event 0: sends event 1 from this node and waits for it, then handles.
    static var resend: Self { Self([.send(from: nil, ConcurrencyFixtures.followUp)], then: .handled) }

    /// For event 0: posts event 1 from this node (keeping its ticket), then handles.
    static var repost: Self { Self([.post(from: nil, ConcurrencyFixtures.followUp)], then: .handled) }
}

extension ConcurrencyFixtures {
    /// Event 1 of the sender of `event`, when `event` is event 0; `nil` otherwise.
    @Sendable static func followUp(_ event: any Event) -> (any Event)? {
        guard let event = event as? Numbered, event.number == 0 else { return nil }
        return Numbered(sender: event.sender, number: 1)
    }
}

extension ScriptedResponder.Step {
    /// Posts event `number` (of the handled event's sender) from `sender` (this responder when
    /// `nil`) without awaiting its outcome; the ticket is kept in
    /// ``ScriptedResponder/tickets``.
    static func post(_ number: Int, from sender: (any Responder)? = nil) -> Self {
        .post(from: sender) { event in
            ConcurrencyFixtures.Numbered(
                sender: (event as? ConcurrencyFixtures.Numbered)?.sender ?? 0, number: number)
        }
    }
}

extension ScriptedResponder {
    /// A responder whose handler for ``ConcurrencyFixtures/Numbered`` event `n` runs `scripts[n]`
    /// (or `otherwise`).
    init(
        _ name: String, parent: (any Responder)? = nil, root: Bool = false, exclusive: Bool = false,
        system: EventSystem = .default, nextGate: Gate? = nil, scripts: [Int: Script],
        otherwise: Script = Script()
    ) {
        self.init(
            name, parent: parent, root: root, exclusive: exclusive, system: system, nextGate: nextGate
        ) { event in
            (event as? ConcurrencyFixtures.Numbered).flatMap { scripts[$0.number] } ?? otherwise
        }
    }

    /// The responder's label.
    nonisolated var name: String { label }

    /// How many events this responder saw more than once.
    var duplicates: Int { seen.count - Set(seen.map(\.eventID)).count }

    /// The tickets of the events this responder's handlers posted.
    var innerTickets: [Ticket] { tickets }

    /// The outcomes of the events this responder's handlers sent.
    var nestedOutcomes: [Outcome] { outcomes }
}

extension ScriptedResponder.Sighting {
    /// The number of a ``ConcurrencyFixtures/Numbered`` event (-1 for any other event).
    var number: Int { (event as? ConcurrencyFixtures.Numbered)?.number ?? -1 }
    /// The sender of a ``ConcurrencyFixtures/Numbered`` event (-1 for any other event).
    var sender: Int { (event as? ConcurrencyFixtures.Numbered)?.sender ?? -1 }
}
