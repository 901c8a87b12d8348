import Foundation
import ResponderChain
import ResponderChainStoredEvents

/// Scenario 14: what reading an event of an older schema version costs: a row stored at version
/// 1 read through three upcasts (each decoding step a shape, each step making the next) against
/// the same event stored at the current version 4 and decoded at once. The registry is the one a
/// store and a gRPC link read with (`StoredEvents`), so this is the cost per event of both.
struct Upcasts: Scenario {
    let id = "upcast"
    let title = "14 event read through a 3-step upcast"

    func run(_ measurer: Measurer) async -> [Row] {
        let events = Self.registry()
        let old = Data(#"{"order":"o-17","lines":[{"sku":"A-1","count":2},{"sku":"B-7","count":1}]}"#.utf8)
        let current = try! events.encode(
            Order(
                id: "o-17",
                lines: [Order.Line(sku: "A-1", quantity: 2), Order.Line(sku: "B-7", quantity: 1)],
                currency: "EUR", express: false)
        ).bytes
        let (library, baseline) = await measurer.measurePair(
            library: { await Self.read(old, version: 1, from: events, iterations: $0) },
            baseline: { await Self.read(current, version: 4, from: events, iterations: $0) })
        return [
            Row(
                id: id, scenario: title, depth: nil, hops: 1, library: library, baseline: baseline,
                target: .extraNanosecondsPerHopAtMost(5_000),
                note: "14: a version-1 row read through 3 upcasts vs the same event stored at version 4; "
                    + "per event")
        ]
    }

    @concurrent
    static func read(_ bytes: Data, version: Int, from events: StoredEvents, iterations: Int) async -> Timed {
        let stopwatch = Stopwatch()
        var lines = 0
        for _ in 0..<iterations {
            guard case .event(let event) = events.decode(name: "order", version: version, bytes: bytes),
                let order = event as? Order
            else { fatalError("the benchmark's row did not read: the scenario is broken") }
            lines &+= order.lines.count
        }
        return stopwatch.stop(iterations: iterations, checksum: UInt64(lines))
    }

    /// Version 4 of the event, and its three earlier shapes.
    struct Order: Event, Codable {
        struct Line: Codable {
            let sku: String
            let quantity: Int
        }
        let id: String
        let lines: [Line]
        let currency: String
        let express: Bool
    }

    struct V1: Decodable, Sendable {
        struct Line: Decodable, Sendable {
            let sku: String
            let count: Int
        }
        let order: String
        let lines: [Line]
    }

    struct V2: Decodable, Sendable {
        let id: String
        let lines: [Order.Line]
    }

    struct V3: Decodable, Sendable {
        let id: String
        let lines: [Order.Line]
        let currency: String
    }

    static func registry() -> StoredEvents {
        var events = StoredEvents()
        try! events.register(
            Order.self, as: "order", version: 4,
            upcasting: [
                EventUpcast(from: 1, V1.self) { v1 in
                    V2(id: v1.order, lines: v1.lines.map { Order.Line(sku: $0.sku, quantity: $0.count) })
                },
                EventUpcast(from: 2, V2.self) { V3(id: $0.id, lines: $0.lines, currency: "EUR") },
                EventUpcast(from: 3, V3.self) {
                    Order(id: $0.id, lines: $0.lines, currency: $0.currency, express: false)
                },
            ])
        return events
    }
}
