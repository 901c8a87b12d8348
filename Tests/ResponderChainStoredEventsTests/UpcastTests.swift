import Foundation
import ResponderChain
import ResponderChainStoredEvents
import Testing

/// Four shapes of one event: the first three are kept only to read old rows.
enum Shapes {
    /// Version 1: `{"order":"o-1"}`.
    struct V1: Decodable, Sendable { let order: String }
    /// Version 2 added the quantity.
    struct V2: Decodable, Sendable {
        let order: String
        let quantity: Int
    }
    /// Version 3 renamed `order` to `id` and added a currency that could be missing.
    struct V3: Decodable, Sendable {
        let id: String
        let quantity: Int
        let currency: String?
    }
}

/// An event of version 1 whose binary declared it reads version 2 (which only added a field).
struct ReadAhead: Event, Codable {
    let order: String
}

/// Version 4, the current type: the currency is no longer optional.
struct OrderPlaced: Event, Codable, Hashable {
    let id: String
    let quantity: Int
    let currency: String
}

struct Refused: Error, CustomStringConvertible {
    var description: String { "a quantity of 0 cannot be carried" }
}

/// The three steps from version 1 to the current type.
let threeSteps = [
    EventUpcast(from: 1, Shapes.V1.self) { Shapes.V2(order: $0.order, quantity: 1) },
    EventUpcast(from: 2, Shapes.V2.self) { v2 throws(Refused) in
        guard v2.quantity > 0 else { throw Refused() }
        return Shapes.V3(id: v2.order, quantity: v2.quantity, currency: nil)
    },
    EventUpcast(from: 3, Shapes.V3.self) {
        OrderPlaced(id: $0.id, quantity: $0.quantity, currency: $0.currency ?? "EUR")
    },
]

func events(upcasting upcasts: [EventUpcast] = threeSteps) throws -> StoredEvents {
    var events = StoredEvents()
    try events.register(OrderPlaced.self, as: "order-placed", version: 4, upcasting: upcasts)
    return events
}

extension EventSystem.StoredPost.Payload {
    var order: OrderPlaced? {
        guard case .event(let event) = self else { return nil }
        return event as? OrderPlaced
    }

    var reason: String? {
        guard case .undecodable(let undecodable) = self else { return nil }
        return undecodable.reason
    }
}

@Suite("Rows of older schema versions are carried to the current type by registered upcasts")
struct UpcastTests {
    @Test(
        "A row of each older version reads as the current type, through the steps from its version on",
        arguments: [
            (1, #"{"order":"o-1"}"#, OrderPlaced(id: "o-1", quantity: 1, currency: "EUR")),
            (2, #"{"order":"o-2","quantity":2}"#, OrderPlaced(id: "o-2", quantity: 2, currency: "EUR")),
            (
                3, #"{"id":"o-3","quantity":3,"currency":"USD"}"#,
                OrderPlaced(id: "o-3", quantity: 3, currency: "USD")
            ),
            (
                4, #"{"id":"o-4","quantity":4,"currency":"CHF"}"#,
                OrderPlaced(id: "o-4", quantity: 4, currency: "CHF")
            ),
        ])
    func carried(version: Int, json: String, expected: OrderPlaced) throws {
        let payload = try events().decode(name: "order-placed", version: version, bytes: Data(json.utf8))
        #expect(payload.order == expected, "\(payload)")
    }

    @Test("What the current binary writes it reads back, at the current version")
    func roundTrip() throws {
        let events = try events()
        let written = try events.encode(OrderPlaced(id: "o-9", quantity: 9, currency: "JPY"))
        #expect(written.version == 4)
        #expect(
            events.decode(name: written.name, version: written.version, bytes: written.bytes).order
                == OrderPlaced(id: "o-9", quantity: 9, currency: "JPY"))
    }

    @Test("The versions read run from the oldest upcast's to the current one; from 1 without upcasts")
    func versionsRead() throws {
        #expect(try events().versions(of: "order-placed") == 1...4)
        #expect(try events(upcasting: Array(threeSteps.dropFirst())).versions(of: "order-placed") == 2...4)
        #expect(try events(upcasting: []).versions(of: "order-placed") == 1...4)
        #expect(try events().versions(of: "order-paid") == nil)
        #expect(try events().names == ["order-placed"])
    }

    @Test("A declared read-ahead reads rows of newer versions as the current type, up to it and no further")
    func readAhead() throws {
        var events = StoredEvents()
        try events.register(ReadAhead.self, as: "r", version: 1, readingAheadTo: 2)
        #expect(events.versions(of: "r") == 1...2)
        #expect(events.version(of: "r") == 1)
        let newer = events.decode(name: "r", version: 2, bytes: Data(#"{"order":"o-2","quantity":5}"#.utf8))
        guard case .event(let event) = newer else {
            Issue.record("\(newer)")
            return
        }
        #expect((event as? ReadAhead)?.order == "o-2")
        #expect(
            events.decode(name: "r", version: 3, bytes: Data("{}".utf8)).reason?.contains("reads up to 2")
                == true)
        #expect(throws: StoredEventsError.readAheadBelowVersion("q", readAhead: 1, version: 2)) {
            try events.register(OrderPlaced.self, as: "q", version: 2, readingAheadTo: 1)
        }
    }

    @Test("Without upcasts, the current type reads every version up to its own, as before")
    func withoutUpcasts() throws {
        let events = try events(upcasting: [])
        let payload = events.decode(
            name: "order-placed", version: 1, bytes: Data(#"{"id":"o-1","quantity":1,"currency":"EUR"}"#.utf8)
        )
        #expect(payload.order == OrderPlaced(id: "o-1", quantity: 1, currency: "EUR"))
    }

    /// How a row fails to come through.
    enum Unreadable: String, CaseIterable, CustomTestStringConvertible {
        case retired = "its version is older than the oldest upcast"
        case newer = "its version is newer than the current one"
        case stepThrows = "a step throws"
        case oldShapeDoesNotDecode = "its bytes do not decode as its version's shape"

        var testDescription: String { rawValue }
    }

    @Test("A row is undecodable, with its reason, and nothing traps when", arguments: Unreadable.allCases)
    func undecodable(_ unreadable: Unreadable) throws {
        let version: Int
        let json: String
        var upcasts = threeSteps
        let expected: String
        switch unreadable {
        case .retired:
            upcasts.removeFirst()
            (version, json) = (1, #"{"order":"o-1"}"#)
            expected = "this binary reads versions 2 to 4 (no upcast from 1)"
        case .newer:
            (version, json) = (5, #"{"id":"o-5"}"#)
            expected = "stored with schema version 5; this binary reads up to 4"
        case .stepThrows:
            (version, json) = (2, #"{"order":"o-2","quantity":0}"#)
            expected = "the upcast from version 2 threw: a quantity of 0 cannot be carried"
        case .oldShapeDoesNotDecode:
            (version, json) = (1, #"{"id":"o-1"}"#)
            expected = "does not decode as \(String(reflecting: Shapes.V1.self)), the shape of version 1"
        }
        let payload = try events(upcasting: upcasts).decode(
            name: "order-placed", version: version, bytes: Data(json.utf8))
        let reason = try #require(payload.reason, "\(payload)")
        #expect(reason.contains(expected), "\(reason)")
        guard case .undecodable(let row) = payload else { return }
        #expect(row.bytes == Array(json.utf8))
        #expect(row.schemaVersion == version)
    }

    /// Counts the steps of a long chain: each reads and makes the same shape.
    struct Step: Decodable, Sendable { let count: Int }

    /// A chain the registration refuses, with the error it refuses it with.
    struct Refusal: Sendable, CustomTestStringConvertible {
        let what: String
        let upcasts: [EventUpcast]
        let error: StoredEventsError

        init(_ what: String, _ upcasts: [EventUpcast], _ error: StoredEventsError) {
            (self.what, self.upcasts, self.error) = (what, upcasts, error)
        }

        var testDescription: String { what }
    }

    static let refusals: [Refusal] = [
        Refusal(
            "a step from the current version", threeSteps + [EventUpcast(from: 4, OrderPlaced.self) { $0 }],
            .upcastVersionOutOfRange("order-placed", version: 4, current: 4)
        ),
        Refusal(
            "a step from version 0",
            [EventUpcast(from: 0, Shapes.V1.self) { Shapes.V2(order: $0.order, quantity: 1) }],
            .upcastVersionOutOfRange("order-placed", version: 0, current: 4)
        ),
        Refusal(
            "two steps from one version", threeSteps + [threeSteps[1]],
            .duplicateUpcast("order-placed", version: 2)
        ),
        Refusal(
            "a version with no step", [threeSteps[0], threeSteps[2]],
            .missingUpcast("order-placed", version: 2)
        ),
        Refusal(
            "a step that makes another shape than the next reads",
            [EventUpcast(from: 1, Shapes.V1.self) { Shapes.V3(id: $0.order, quantity: 1, currency: nil) }]
                + threeSteps.dropFirst(),
            .upcastShapesDiffer(
                "order-placed", version: 1, makes: String(reflecting: Shapes.V3.self),
                nextReads: String(reflecting: Shapes.V2.self))
        ),
        Refusal(
            "a last step that does not make the current type",
            threeSteps.dropLast() + [EventUpcast(from: 3, Shapes.V3.self) { $0 }],
            .upcastShapesDiffer(
                "order-placed", version: 3, makes: String(reflecting: Shapes.V3.self),
                nextReads: String(reflecting: OrderPlaced.self))
        ),
        Refusal(
            "seventeen steps", (1...17).map { EventUpcast(from: $0, Step.self) { $0 } },
            .tooManyUpcasts("order-placed", count: 17)
        ),
    ]

    @Test("A registration is refused, typed, for", arguments: refusals)
    func refused(_ refusal: Refusal) {
        #expect(throws: refusal.error) { try events(upcasting: refusal.upcasts) }
        // The message names what to fix.
        #expect(refusal.error.description.contains("order-placed"))
    }

    @Test("Sixteen steps are carried")
    func sixteenSteps() throws {
        var events = StoredEvents()
        var upcasts = (1...15).map { version in
            EventUpcast(from: version, Step.self) { Step(count: $0.count + 1) }
        }
        upcasts.append(
            EventUpcast(from: 16, Step.self) {
                OrderPlaced(id: "o-\($0.count)", quantity: 1, currency: "EUR")
            })
        try events.register(OrderPlaced.self, as: "order-placed", version: 17, upcasting: upcasts)
        let payload = events.decode(name: "order-placed", version: 1, bytes: Data(#"{"count":0}"#.utf8))
        #expect(payload.order?.id == "o-15")
    }
}
