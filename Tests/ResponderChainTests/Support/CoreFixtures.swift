import ResponderChain
import ResponderChainTesting
// Test doubles shared by the core suites (Tests/ResponderChainTests/Core/).

/// The event most suites send.
struct Ping: Event {}

/// An event only ``Doorman`` handles.
struct Knock: Event {}

/// A typed event with a value, for the named-event suite.
struct ItemAdded: Event, Equatable { let sku: String }

/// What a failing handler throws.
struct Boom: Error, Equatable, CustomStringConvertible {
    var description: String { "boom" }
}

/// A single decoration, to test collisions.
enum Tag: InfoKey { typealias Value = String }

/// A decoration that accumulates: each hop appends its name.
enum Trail: InfoKey { typealias Value = [String] }

extension NamedEvent.Name {
    static let addToCart: NamedEvent.Name = "addToCart"
    static let clearCart: NamedEvent.Name = "clearCart"
}

/// What a ``Station`` (or ``Panel``) does with a ``Ping``.
enum Reaction: Sendable {
    case pass
    case handle
    case handleAndContinue
    /// Throws ``Boom``.
    case fail
    /// Sets ``Tag`` to the value, then decides.
    case tag(String, then: Disposition)
    /// Appends the responder's name to ``Trail``, then decides.
    case appendTrail(then: Disposition)
    /// Parks on the gate, then decides.
    case park(Gate, then: Disposition)
}

/// The names of the responders whose handlers ran, in order, across all of them.
final class Journal: Sendable {
    private let entries = Locked<[String]>([])

    func append(_ name: String) { entries.withLock { $0.append(name) } }
    var names: [String] { entries.withLock { $0 } }
}

/// Runs `reaction` for the responder called `name`.
func perform(_ reaction: Reaction, by name: String, context: inout EventContext) async throws
    -> Disposition
{
    switch reaction {
    case .pass: return .pass
    case .handle: return .handled
    case .handleAndContinue: return .handledAndContinue
    case .fail: throw Boom()
    case .tag(let value, let disposition):
        context.info[Tag.self] = value
        return disposition
    case .appendTrail(let disposition):
        context.info[Trail.self, default: []].append(name)
        return disposition
    case .park(let gate, let disposition):
        try await gate.pass()
        return disposition
    }
}

extension EventInfo {
    /// The value under `key`, or `defaultValue` (read) and stored there (write).
    subscript<Key: InfoKey>(key: Key.Type, default defaultValue: @autoclosure () -> Key.Value)
        -> Key.Value
    {
        get { self[key] ?? defaultValue() }
        set { self[key] = newValue }
    }
}

/// The core suites' general-purpose actor responder: the kit's scripted responder, handling
/// only ``Ping``, with a ``Reaction``; build one with
/// ``ScriptedResponder/init(named:_:parent:root:system:journal:)``.
typealias Station = ScriptedResponder

extension Reaction {
    /// The script of a ``Station`` called `name` that reacts this way, having first written its
    /// name to `journal`.
    func script(by name: String, journal: Journal?) -> ScriptedResponder.Script {
        var steps: [ScriptedResponder.Step] = []
        if let journal { steps.append(.perform { _, _ in journal.append(name) }) }
        switch self {
        case .pass: return .init(steps, then: .pass)
        case .handle: return .init(steps, then: .handled)
        case .handleAndContinue: return .init(steps, then: .handledAndContinue)
        case .fail: return .init(steps, throwing: Boom())
        case .tag(let value, let disposition):
            steps.append(.perform { _, context in context.info[Tag.self] = value })
            return .init(steps, then: disposition)
        case .appendTrail(let disposition):
            steps.append(.perform { _, context in context.info[Trail.self, default: []].append(name) })
            return .init(steps, then: disposition)
        case .park(let gate, let disposition):
            steps.append(.park(gate))
            return .init(steps, then: disposition)
        }
    }
}

extension ScriptedResponder {
    /// A ``Station`` called `name` that handles ``Ping`` with `reaction`, writing its name to
    /// `journal` first.
    init(
        named name: String, _ reaction: Reaction = .pass, parent: (any Responder)? = nil,
        root: Bool = false, system: EventSystem = .default, journal: Journal? = nil
    ) {
        self.init(
            name, reaction.script(by: name, journal: journal), parent: parent, root: root,
            system: system, handling: [Ping.self])
    }

    /// What its handlers saw, in order.
    var sightings: [Sighting] { seen }

    /// Reacts with `reaction` from now on (writing to no journal).
    func react(_ reaction: Reaction) { setScript(reaction.script(by: label, journal: nil)) }
}

extension ScriptedResponder.Sighting {
    /// The ``Tag`` the event carried when the handler ran.
    var tag: String? { info[Tag.self] }
    /// The ``Trail`` the event carried when the handler ran.
    var trail: [String]? { info[Trail.self] }
    /// The responder the send came from, if any.
    var sourceResponder: ResponderID? { source.responderID }
    /// Everything in the event's information when the handler ran: name → printed value.
    var printedInfo: [String: String] {
        Dictionary(uniqueKeysWithValues: info.entries.map { ($0.name, $0.value) })
    }
}

/// Builds a chain of stations `s0` (the leaf, first in the result) … `sN-1` (the top) with the
/// given reactions; the top is a root unless `topIsRoot` is `false`.
func makeChain(
    _ reactions: [Reaction], topIsRoot: Bool = true, system: EventSystem = .default,
    journal: Journal? = nil
) -> [Station] {
    var stations: [Station] = []
    var parent: (any Responder)?
    for (index, reaction) in reactions.enumerated().reversed() {
        let station = Station(
            named: "s\(index)", reaction, parent: parent,
            root: topIsRoot && index == reactions.count - 1, system: system, journal: journal)
        stations.insert(station, at: 0)
        parent = station
    }
    return stations
}

/// A chain made by ``makeChain(_:topIsRoot:system:journal:)`` whose stations write to a new
/// journal, and that journal.
func journaledChain(_ reactions: [Reaction], topIsRoot: Bool = true) -> (journal: Journal, chain: [Station]) {
    let journal = Journal()
    return (journal, makeChain(reactions, topIsRoot: topIsRoot, journal: journal))
}

/// A responder whose table handles only ``Knock``.
actor Doorman: Responder {
    private let parent: (any Responder)?
    private(set) var knocks = 0

    init(parent: (any Responder)?) { self.parent = parent }

    var next: (any Responder)? { parent }

    static let strategies = Strategies<Doorman> {
        $0.on(Knock.self) { doorman, _, _ in
            doorman.knocks += 1
            return .handled
        }
    }
}

/// A root that sees every event that reaches it (the app delegate of the source techniques).
actor RootSink: Responder {
    let disposition: Disposition
    private(set) var seen: [String] = []

    init(_ disposition: Disposition = .handled) { self.disposition = disposition }

    var next: (any Responder)? { nil }
    nonisolated var isRoot: Bool { true }

    static let strategies = Strategies<RootSink> {
        $0.onAnyEvent { sink, event, _ in
            sink.seen.append(event.traceName)
            return sink.disposition
        }
    }
}

/// A main-actor responder that handles ``Ping`` with its ``Reaction``.
@MainActor
final class Panel: MainActorResponder {
    let name: String
    let reaction: Reaction
    let journal: Journal?
    var parent: (any Responder)?
    private(set) var pings = 0

    init(_ name: String, _ reaction: Reaction = .pass, parent: (any Responder)?, journal: Journal? = nil) {
        self.name = name
        self.reaction = reaction
        self.parent = parent
        self.journal = journal
    }

    var next: (any Responder)? { parent }
    nonisolated var label: String { "Panel" }

    nonisolated static let strategies = Strategies<Panel> {
        $0.on(Ping.self) { panel, _, context in
            MainActor.assertIsolated()
            panel.pings += 1
            panel.journal?.append(panel.name)
            return try await perform(panel.reaction, by: panel.name, context: &context)
        }
    }
}

/// A global actor other than the main actor, for the core and the tracing suites.
@globalActor
actor LedgerActor {
    static let shared = LedgerActor()
}

/// A responder isolated to ``LedgerActor``: it names its actor and implements `handle`, as the
/// `GlobalActorResponder` documentation describes.
@LedgerActor
final class Ledger: GlobalActorResponder {
    nonisolated static var globalActor: any Actor { LedgerActor.shared }
    private let parent: (any Responder)?
    let journal: Journal?
    private(set) var entries: [String] = []

    init(parent: (any Responder)?, journal: Journal? = nil) {
        self.parent = parent
        self.journal = journal
    }

    var next: (any Responder)? { parent }

    nonisolated(nonsending) func handle(_ event: any Event, context: inout EventContext)
        async throws -> Disposition
    {
        await Self.record(self, event: event, context: &context)
    }

    private static func record(_ ledger: Ledger, event: any Event, context: inout EventContext)
        -> Disposition
    {
        LedgerActor.shared.assertIsolated()
        ledger.entries.append(event.traceName)
        ledger.journal?.append("ledger")
        context.info[Tag.self] = "ledger"
        return .pass
    }
}

/// A controller with an event proxy beside it and, optionally, a catch-all fallback.
actor Controller: Responder {
    var proxy: (any Responder)?
    let fallback: Disposition?
    private let parent: (any Responder)?
    private(set) var pings = 0
    private(set) var fallbackSaw: [String] = []

    init(proxy: (any Responder)?, fallback: Disposition? = nil, parent: (any Responder)?) {
        self.proxy = proxy
        self.fallback = fallback
        self.parent = parent
    }

    var next: (any Responder)? { parent }

    func delegate(to proxy: (any Responder)?) { self.proxy = proxy }

    static let strategies = Strategies<Controller> {
        $0.on(Ping.self) { controller, _, _ in
            controller.pings += 1
            return .handled
        }
        $0.proxy { $0.proxy }
        $0.onAnyEvent { controller, event, _ in
            guard let fallback = controller.fallback else { return .pass }
            controller.fallbackSaw.append(event.traceName)
            return fallback
        }
    }
}

/// The event proxy of a ``Controller``: its own table, for ``Knock`` and ``Ping``.
actor EventProxy: Responder {
    let disposition: Disposition
    private(set) var seen: [String] = []

    init(_ disposition: Disposition) { self.disposition = disposition }

    /// A proxy's `next` is never used.
    var next: (any Responder)? { nil }

    static let strategies = Strategies<EventProxy> {
        $0.on(Knock.self) { proxy, event, context in
            proxy.seen.append(event.traceName)
            context.info[Tag.self] = "proxy"
            return proxy.disposition
        }
        $0.on(Ping.self) { proxy, event, _ in
            proxy.seen.append(event.traceName)
            return proxy.disposition
        }
    }
}

/// A cart with a typed handler and named handlers.
actor Cart: Responder {
    private let parent: (any Responder)?
    private(set) var items: [String] = []

    init(parent: (any Responder)? = nil) { self.parent = parent }

    var next: (any Responder)? { parent }

    static let strategies = Strategies<Cart> {
        $0.on(ItemAdded.self) { cart, event, _ in
            cart.items.append("typed:\(event.sku)")
            return .handled
        }
        $0.on(.addToCart, payload: String.self) { cart, sku, _ in
            cart.items.append("named:\(sku)")
            return .handled
        }
        $0.on(.clearCart, payload: Void.self) { cart, _, _ in
            cart.items.removeAll()
            return .handled
        }
    }
}

/// Routers with a recorder as their dead-letter sink.
extension DeadLetterRecorder {
    /// A system whose dead letters go to this recorder.
    var system: EventSystem { EventSystem(deadLetters: sink) }
}
