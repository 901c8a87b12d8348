import struct Foundation.Data
import ResponderChain
import ResponderChainGRPC
import ResponderChainStoredEvents
import ResponderChainTesting
import Synchronization
import Testing

/// The order event as an older binary knows it (schema version 1).
private struct ShipV1: Event, Codable {
    let order: String
}

/// The order event as the newer binary knows it (schema version 2).
private struct Ship: Event, Codable, Hashable {
    let id: String
    let express: Bool
}

/// The old binary's registry: `Ship` at version 1, under the name both share.
private func oldRegistry() throws -> RemoteRegistry {
    var registry = RemoteRegistry()
    try registry.register(ShipV1.self, as: "ship")
    return registry
}

/// The new binary's registry: `Ship` at version 2, reading version 1 through an upcast.
private func newRegistry() throws -> RemoteRegistry {
    var registry = RemoteRegistry()
    try registry.register(
        Ship.self, as: "ship", version: 2,
        upcasting: [EventUpcast(from: 1, ShipV1.self) { Ship(id: $0.order, express: false) }])
    return registry
}

/// A receiving side: one entry that handles every event and records it.
private struct Receiver {
    let system = EventSystem()
    let desk: ScriptedResponder
    let entries: RemoteEntries

    init(_ registry: RemoteRegistry) {
        desk = ScriptedResponder("desk", .handle, root: true, system: system)
        entries = RemoteEntries(["desk": desk], registry: registry, system: system)
    }
}

/// A transport to a side of wire format 2, as an older binary is: its names carry no versions,
/// and it refuses a request of any version but 2; what it was sent is recorded.
private final class VersionTwoPeer: RemoteTransport {
    let inner: InProcessTransport
    let entries: RemoteEntries
    let versionsSent = Mutex<[Int]>([])

    init(_ entries: RemoteEntries) {
        self.entries = entries
        inner = InProcessTransport(entries)
    }

    func deliver(_ request: RemoteRequest) async throws -> RemoteReply {
        versionsSent.withLock { $0.append(request.version) }
        guard request.version == 2 else {
            return RemoteReply(version: 2, body: .refused(.unsupportedVersion(request.version)))
        }
        return try await inner.deliver(request)
    }

    func registryNames() async throws -> RemoteRegistryNames {
        let names = entries.registry.names
        return RemoteRegistryNames(events: names.events, info: names.info)
    }
}

@Suite(
    "Event schema versions on the wire: older values upcast, newer ones refused, wire formats 2 and 3 side by side"
)
struct SchemaVersionTests {
    @Test(
        "A value of an older schema version arrives as the current type, through the upcast, and is handled")
    func olderValueIsUpcast() async throws {
        let receiver = Receiver(try newRegistry())
        let front = EventSystem()
        let link = RemoteLink(
            entry: "desk", transport: InProcessTransport(receiver.entries), registry: try oldRegistry(),
            system: front)
        let sender = ScriptedResponder("sender", .pass, parent: link, system: front)

        let outcome = await sender.send(ShipV1(order: "o-1"))

        #expect(outcome.handledDetails != nil, "\(outcome)")
        #expect(await receiver.desk.seen.map { $0.event as? Ship } == [Ship(id: "o-1", express: false)])
    }

    @Test(
        "A value of a newer schema version than the receiver reads is refused, typed, before any handler runs"
    )
    func newerValueIsRefused() async throws {
        let receiver = Receiver(try oldRegistry())
        let front = EventSystem()
        let link = RemoteLink(
            entry: "desk", transport: InProcessTransport(receiver.entries), registry: try newRegistry(),
            system: front)
        let sender = ScriptedResponder("sender", .pass, parent: link, system: front)

        let outcome = await sender.send(Ship(id: "o-1", express: true))

        let broken = try #require(outcome.interruptedDetails, "\(outcome)")
        #expect(
            broken.cause as? RemoteLinkError
                == .refused(.newerSchemaVersion(event: "ship", version: 2, newest: 1)))
        #expect(await receiver.desk.seen.isEmpty)
    }

    @Test(
        "A request of wire format 2 is read and answered in wire format 2; a newer value's refusal reaches it as undecodable"
    )
    func versionTwoCallerIsAnsweredInItsVersion() async throws {
        let receiver = Receiver(try oldRegistry())
        let plain = RemoteRequest(
            version: 2, entry: "desk", event: WireValue(name: "ship", json: Data(#"{"order":"o-1"}"#.utf8)),
            info: [], source: "old", hopsBefore: 1, timeLeftNanoseconds: nil)
        let handled = await receiver.entries.reply(to: plain, from: "old")
        #expect(handled.version == 2)
        guard case .outcome(let outcome) = handled.body else {
            Issue.record("refused: \(handled.body)")
            return
        }
        #expect(outcome.kind == "handled")

        var newer = plain
        newer.version = 3
        newer.event.schemaVersion = 5
        let refusedInThree = await receiver.entries.reply(to: newer, from: "new")
        #expect(refusedInThree.version == 3)
        guard case .refused(.newerSchemaVersion("ship", 5, 1)) = refusedInThree.body else {
            Issue.record("\(refusedInThree.body)")
            return
        }
        newer.version = 2
        let refusedInTwo = await receiver.entries.reply(to: newer, from: "old")
        #expect(refusedInTwo.version == 2)
        guard case .refused(.undecodable(let what)) = refusedInTwo.body else {
            Issue.record("\(refusedInTwo.body)")
            return
        }
        #expect(what.contains("schema version 5"))
        #expect(await receiver.desk.seen.count == 1)
    }

    @Test(
        "A request of a wire format neither 2 nor 3 is refused, answered in version 2, which every caller reads",
        arguments: [0, 1, 4])
    func otherWireVersionsAreRefused(version: Int) async throws {
        let receiver = Receiver(try oldRegistry())
        let request = RemoteRequest(
            version: version, entry: "desk",
            event: WireValue(name: "ship", json: Data(#"{"order":"o-1"}"#.utf8)),
            info: [], source: "x", hopsBefore: 1, timeLeftNanoseconds: nil)
        let reply = await receiver.entries.reply(to: request, from: "x")
        #expect(reply.version == 2)
        guard case .refused(.unsupportedVersion(version)) = reply.body else {
            Issue.record("\(reply.body)")
            return
        }
    }

    @Test(
        "Against a side of wire format 2, a checked link writes version 2; an event of schema version 1 crosses, one of version 2 fails at the link, unsent"
    )
    func checkedLinkWritesVersionTwo() async throws {
        let old = Receiver(try oldRegistry())
        let peer = VersionTwoPeer(old.entries)
        let front = EventSystem()
        var registry = try newRegistry()
        try registry.register(ShipV1Twin.self, as: "ship-v1-twin")
        var oldNames = try oldRegistry()
        try oldNames.register(ShipV1Twin.self, as: "ship-v1-twin")
        let oldSide = Receiver(oldNames)
        let twoPeer = VersionTwoPeer(oldSide.entries)
        // The names differ in what they read: "ship" is version 2 here, 1 there.
        await #expect(throws: RemoteLinkError.schemaVersionNotRead(event: "ship", version: 2, reads: 1...1)) {
            try await RemoteLink(entry: "desk", transport: twoPeer, registry: registry, system: front)
                .checkRegistry()
        }

        // Unchecked, the link writes version 3, which the old side refuses, typed: nothing ran.
        let unchecked = RemoteLink(entry: "desk", transport: peer, registry: try oldRegistry(), system: front)
        let refused = await ScriptedResponder("s0", .pass, parent: unchecked, system: front).send(
            ShipV1(order: "o-0"))
        #expect(refused.interruptedDetails?.cause as? RemoteLinkError == .refused(.unsupportedVersion(3)))

        // Checked, it writes version 2.
        let link = RemoteLink(entry: "desk", transport: peer, registry: try oldRegistry(), system: front)
        try await link.checkRegistry()
        let sender = ScriptedResponder("s1", .pass, parent: link, system: front)
        #expect(await sender.send(ShipV1(order: "o-1")).handledDetails != nil)
        #expect(peer.versionsSent.withLock { $0 } == [3, 2])
        #expect(await old.desk.seen.map { ($0.event as? ShipV1)?.order } == ["o-1"])

        // An event of schema version 2 cannot be written in wire format 2: it fails at the link.
        let newLink = RemoteLink(entry: "desk", transport: twoPeer, registry: registry, system: front)
        let newSender = ScriptedResponder("s2", .pass, parent: newLink, system: front)
        try? await newLink.checkRegistry()
        let failed = await newSender.send(Ship(id: "o-2", express: true))
        #expect(
            failed.failedDetails?.error as? RemoteLinkError
                == .schemaVersionNotRead(event: "ship", version: 2, reads: 1...1), "\(failed)")
        #expect(twoPeer.versionsSent.withLock { $0 }.isEmpty)
    }

    @Test("The names a side serves say which schema versions of each event it reads, and which wire formats")
    func namesCarryVersions() throws {
        let names = try newRegistry().names
        #expect(names.eventVersions == ["ship": 1...2])
        #expect(names.wireVersions == WireFormat.readVersions)
        #expect(names.description.contains("event ship (no example) (schema versions 1–2)"))
        #expect(try oldRegistry().names.versions(ofEvent: "ship") == 1...1)
    }
}

/// A second event the old binary knows, registered at version 1 on both sides.
private struct ShipV1Twin: Event, Codable {}
