import Foundation
import ResponderChain
@testable import ResponderChainGRPC
import Testing

/// The bytes protobuf's own implementation writes for the messages of ``messages``, from
/// `Protos/fixtures/make_fixtures.py` (protoc and Python's protobuf runtime, deterministic
/// serialization): the wire format's reference, and the golden bytes of every version shipped.
///
/// The entries without a prefix are wire format 2's, captured when it shipped and never written
/// again: the current code must still read each of them, and write the same message to the same
/// bytes. The `v3.` entries are wire format 3's (what it added).
private let reference: [String: String] = [
    "request.full":
        "080212066f72646572731a2a0a0c6f72646572732e706c616365121a7b227175616e74697479223a322c22736b75223a"
        + "22412d31227d22180a0f6f72646572732e637573746f6d6572120522632d372222160a0b6f72646572732e6e6f746512"
        + "0722c3a974c3a9222a0c72656c61792866726f6e7429300338b71742460a0b7472616365706172656e74123730302d30"
        + "616637363531393136636434336464383434386562323131633830333139632d62376164366237313639323033333331"
        + "2d303142110a0a747261636573746174651203613d62",
    "request.plain":
        "08021201651a070a016e12027b7d2a01733800",
    "request.noDeadline":
        "08021201651ab2020a016e12ac0278787878787878787878787878787878787878787878787878787878787878787878"
        + "787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878"
        + "787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878"
        + "787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878"
        + "787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878"
        + "787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878"
        + "78787878787878787878787878787878787878787878787878782a01733001",
    "reply.handled":
        "080212770a0768616e646c656410021801221208d2e186b58a041209696e76656e746f72792211088580808080808080"
        + "80011204626f6f6b280132170a0f6f72646572732e72657365727665641204747275653a0b6c6f63616c2e6465627567"
        + "421108858080808080808080011204626f6f6b6206627562626c65",
    "reply.cancelled":
        "0802123a0a0963616e63656c6c6564420d08011209696e76656e746f72795a00620763617074757265680070007a0f74"
        + "69636b657443616e63656c6c6564",
    "reply.failed":
        "0802123a0a066661696c65641001420508071201786206627562626c65680182011c0a114f72646572732e4f75744f66"
        + "53746f636b1207736b7520412d31",
    "reply.rejected":
        "0802122f0a0872656a6563746564420908091205656e7472796206627562626c658a010c6c696d697452656163686564"
        + "900100",
    "reply.cycle":
        "080212290a0d6379636c6544657465637465641004420508031201614a05080412016250016206627562626c65",
    "reply.refused.unknownInfo":
        "08021a081a060a01610a0162",
    "reply.refused.tooLarge":
        "08021a0c3a0a08c096b1021080808002",
    "reply.refused.unsupportedVersion":
        "08021a022000",
    "reply.refused.entryGone":
        "08021a023200",
    "reply.refused.outOfSequence":
        "08021a064a0408021001",
    "registryNames":
        "0a0c6f72646572732e706c6163650a0d6f72646572732e63616e63656c120f6f72646572732e637573746f6d6572",
    "registryNames.examples":
        "0a0d6f72646572732e63616e63656c0a0c6f72646572732e706c616365120f6f72646572732e637573746f6d6572120b6f72646572732e6e6f74651a2a0a0c6f72646572732e706c616365121a7b227175616e74697479223a322c22736b75223a22412d31227d22180a0f6f72646572732e637573746f6d6572120522632d3722",
    "v3.request.schemaVersion":
        "080312066f72646572731a2c0a0c6f72646572732e706c616365121a7b227175616e74697479223a322c22736b75223a"
        + "22412d31227d180322180a0f6f72646572732e637573746f6d6572120522632d37222a01733001",
    "v3.request.schemaVersion1":
        "08031201651a070a016e12027b7d2a0173",
    "v3.reply.handled":
        "080312770a0768616e646c656410021801221208d2e186b58a041209696e76656e746f72792211088580808080808080"
        + "80011204626f6f6b280132170a0f6f72646572732e72657365727665641204747275653a0b6c6f63616c2e6465627567"
        + "421108858080808080808080011204626f6f6b6206627562626c65",
    "v3.reply.refused.newerSchemaVersion":
        "08031a1452120a0c6f72646572732e706c61636510041803",
    "v3.registryNames":
        "0a0d6f72646572732e63616e63656c0a0c6f72646572732e706c616365120f6f72646572732e637573746f6d65722a13"
        + "0a0d6f72646572732e63616e63656c100118012a120a0c6f72646572732e706c61636510021803320410021803",
]

/// Messages whose embedded messages come in parts, from `make_fixtures.py`: the parts'
/// serializations one after the other, and what protobuf's own parser reads from them (the
/// later parts merged into the earlier ones), serialized again in one piece.
private let mergedReference: [String: (split: String, merged: String)] = [
    "request.eventInTwoParts": (
        "080212066f72646572731a0e0a0c6f72646572732e706c6163651a0f120d7b22736b75223a22412d31227d2a0173",
        "080212066f72646572731a1d0a0c6f72646572732e706c616365120d7b22736b75223a22412d31227d2a0173"
    ),
    "request.eventNameOverwritten": (
        "08021201651a080a036f6c641201311a050a036e657722030a0169",
        "08021201651a080a036e657712013122030a0169"
    ),
    "reply.outcomeInParts": (
        "0802120f0a0768616e646c656410024202080512122202080142061204626f6f6b8201030a01541212220208026206"
            + "627562626c6582010312016d",
        "0802122e0a0768616e646c656410022202080122020802420808051204626f6f6b6206627562626c658201060a0154"
            + "12016d"
    ),
    "reply.oneofSwitched": (
        "0802120d0a0768616e646c6564420208051a043a0208091a043a021004",
        "08021a063a0408091004"
    ),
    "ordered.requestInParts": (
        "0801120708021a030a016e12091201651a0412027b7d",
        "0801120e08021201651a070a016e12027b7d"
    ),
    "ordered.replyInParts": (
        "08031202080212071a051a030a016112071a051a030a0162",
        "0803120c08021a081a060a01610a0162"
    ),
]

/// The message type each of ``mergedReference``'s entries is read as.
private func mergedType(_ name: String) -> any ProtobufMessage.Type {
    if name.hasPrefix("request.") { return RemoteRequest.self }
    if name.hasPrefix("reply.") { return RemoteReply.self }
    if name.hasPrefix("ordered.request") { return OrderedRequest.self }
    return OrderedReply.self
}

/// The messages `make_fixtures.py` builds, built here.
private let messages: [String: any ProtobufMessage] = {
    let far = UInt64(1) << 63 + 5
    func reply(_ outcome: WireOutcome) -> RemoteReply { RemoteReply(version: 2, body: .outcome(outcome)) }
    let handled = WireOutcome(
        kind: "handled", hops: 2, captureHops: 1,
        handlers: [
            WireResponder(id: 140_234_567_890, label: "inventory"), WireResponder(id: far, label: "book"),
        ],
        captureHandlerCount: 1, info: [WireValue(name: "orders.reserved", json: Data("true".utf8))],
        infoLeftBehind: ["local.debug"], responder: WireResponder(id: far, label: "book"), phase: "bubble")
    var cancelled = WireOutcome(
        kind: "cancelled", hops: 0, captureHops: 0, handlers: [], captureHandlerCount: 0, info: [],
        infoLeftBehind: [], responder: WireResponder(id: 1, label: "inventory"), phase: "capture")
    cancelled.hop = 0
    cancelled.whileHandling = false
    cancelled.stopReason = "ticketCancelled"
    cancelled.lastReached = WireResponder(id: 0, label: "")
    var failed = WireOutcome(
        kind: "failed", hops: 1, captureHops: 0, handlers: [], captureHandlerCount: 0, info: [],
        infoLeftBehind: [], responder: WireResponder(id: 7, label: "x"), phase: "bubble")
    failed.hop = 1
    failed.error = RemoteHandlerError(type: "Orders.OutOfStock", message: "sku A-1")
    var rejected = WireOutcome(
        kind: "rejected", hops: 0, captureHops: 0, handlers: [], captureHandlerCount: 0, info: [],
        infoLeftBehind: [], responder: WireResponder(id: 9, label: "entry"), phase: "bubble")
    rejected.rejection = "limitReached"
    rejected.limit = 0
    var cycle = WireOutcome(
        kind: "cycleDetected", hops: 4, captureHops: 0, handlers: [], captureHandlerCount: 0, info: [],
        infoLeftBehind: [], responder: WireResponder(id: 3, label: "a"), phase: "bubble")
    cycle.closedBy = WireResponder(id: 4, label: "b")
    cycle.isForwardingLoop = true
    return [
        "request.full": RemoteRequest(
            version: 2, entry: "orders",
            event: WireValue(name: "orders.place", json: Data(#"{"quantity":2,"sku":"A-1"}"#.utf8)),
            info: [
                WireValue(name: "orders.customer", json: Data(#""c-7""#.utf8)),
                WireValue(name: "orders.note", json: Data(#""été""#.utf8)),
            ],
            source: "relay(front)", hopsBefore: 3, timeLeftNanoseconds: -1_500,
            traceHeaders: [
                "traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "tracestate": "a=b",
            ]),
        "request.plain": RemoteRequest(
            version: 2, entry: "e", event: WireValue(name: "n", json: Data("{}".utf8)), info: [], source: "s",
            hopsBefore: 0,
            timeLeftNanoseconds: 0),
        "request.noDeadline": RemoteRequest(
            version: 2, entry: "e",
            event: WireValue(name: "n", json: Data(repeating: UInt8(ascii: "x"), count: 300)),
            info: [],
            source: "s", hopsBefore: 1, timeLeftNanoseconds: nil),
        "reply.handled": reply(handled),
        "reply.cancelled": reply(cancelled),
        "reply.failed": reply(failed),
        "reply.rejected": reply(rejected),
        "reply.cycle": reply(cycle),
        "reply.refused.unknownInfo": RemoteReply(version: 2, body: .refused(.unknownInfo(["a", "b"]))),
        "reply.refused.tooLarge": RemoteReply(
            version: 2, body: .refused(.tooLarge(bytes: 5_000_000, limit: 4_194_304))),
        "reply.refused.unsupportedVersion": RemoteReply(version: 2, body: .refused(.unsupportedVersion(0))),
        "reply.refused.entryGone": RemoteReply(version: 2, body: .refused(.entryGone(""))),
        "reply.refused.outOfSequence": RemoteReply(
            version: 2, body: .refused(.outOfSequence(expected: 2, got: 1))),
        "registryNames": RemoteRegistryNames(
            events: ["orders.place", "orders.cancel"], info: ["orders.customer"]),
        "registryNames.examples": RemoteRegistryNames(
            events: ["orders.cancel", "orders.place"], info: ["orders.customer", "orders.note"],
            eventExamples: ["orders.place": Data(#"{"quantity":2,"sku":"A-1"}"#.utf8)],
            infoExamples: ["orders.customer": Data(#""c-7""#.utf8)]),
        "v3.request.schemaVersion": RemoteRequest(
            entry: "orders",
            event: WireValue(
                name: "orders.place", json: Data(#"{"quantity":2,"sku":"A-1"}"#.utf8), schemaVersion: 3),
            info: [WireValue(name: "orders.customer", json: Data(#""c-7""#.utf8))],
            source: "s", hopsBefore: 1, timeLeftNanoseconds: nil),
        "v3.request.schemaVersion1": RemoteRequest(
            entry: "e", event: WireValue(name: "n", json: Data("{}".utf8)), info: [], source: "s",
            hopsBefore: 0, timeLeftNanoseconds: nil),
        "v3.reply.handled": RemoteReply(body: .outcome(handled)),
        "v3.reply.refused.newerSchemaVersion": RemoteReply(
            body: .refused(.newerSchemaVersion(event: "orders.place", version: 4, newest: 3))),
        "v3.registryNames": RemoteRegistryNames(
            events: ["orders.cancel", "orders.place"], info: ["orders.customer"],
            eventVersions: ["orders.cancel": 1...1, "orders.place": 2...3], wireVersions: 2...3),
    ]
}()

private func bytes(hex: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
        let next = hex.index(index, offsetBy: 2)
        bytes.append(UInt8(hex[index..<next], radix: 16)!)
        index = next
    }
    return bytes
}

private func hex(_ bytes: [UInt8]) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
}

/// `bytes` read as a message of `message`'s type, and written again.
private func rewritten(_ bytes: [UInt8], as message: some ProtobufMessage) throws -> [UInt8] {
    func read<Message: ProtobufMessage>(_: Message) throws -> [UInt8] {
        try Message.read(bytes).protobufBytes()
    }
    return try read(message)
}

@Suite("The wire format: protobuf messages of the schema, the same bytes as protobuf's own")
struct WireProtobufTests {
    @Test("each message is written byte for byte as protobuf writes it", arguments: messages.keys.sorted())
    func writesAsProtobuf(name: String) throws {
        let message = try #require(messages[name])
        #expect(hex(message.protobufBytes()) == reference[name])
    }

    @Test("each message protobuf wrote is read back to the same message", arguments: messages.keys.sorted())
    func readsProtobuf(name: String) throws {
        let message = try #require(messages[name])
        let written = bytes(hex: try #require(reference[name]))
        #expect(try rewritten(written, as: message) == written)
    }

    @Test("a request protobuf wrote is read field by field")
    func readsRequestFields() throws {
        let request = try RemoteRequest(serializedBytes: bytes(hex: try #require(reference["request.full"])))
        #expect(request.version == 2)
        #expect(request.event.schemaVersion == 1, "wire format 2 has no schema versions: every value is 1")
        #expect(request.entry == "orders")
        #expect(request.event.name == "orders.place")
        #expect(String(decoding: request.event.json, as: UTF8.self) == #"{"quantity":2,"sku":"A-1"}"#)
        #expect(request.info.map(\.name) == ["orders.customer", "orders.note"])
        #expect(String(decoding: request.info[1].json, as: UTF8.self) == #""été""#)
        #expect(request.source == "relay(front)")
        #expect(request.hopsBefore == 3)
        #expect(request.timeLeftNanoseconds == -1_500)
        #expect(request.traceHeaders["tracestate"] == "a=b")
        let plain = try RemoteRequest(serializedBytes: bytes(hex: try #require(reference["request.plain"])))
        #expect(plain.timeLeftNanoseconds == 0, "a deadline already due is not the same as none")
        let none = try RemoteRequest(
            serializedBytes: bytes(hex: try #require(reference["request.noDeadline"])))
        #expect(none.timeLeftNanoseconds == nil)
    }

    @Test("the versions a side reads are read back, and a range that is not one is refused")
    func readsVersionRanges() throws {
        let names = try RemoteRegistryNames.read(bytes(hex: try #require(reference["v3.registryNames"])))
        #expect(names.eventVersions == ["orders.cancel": 1...1, "orders.place": 2...3])
        #expect(names.wireVersions == 2...3)
        let old = try RemoteRegistryNames.read(bytes(hex: try #require(reference["registryNames"])))
        #expect(old.wireVersions == 2...2, "a side of wire format 2 says nothing: it reads version 2")
        #expect(old.versions(ofEvent: "orders.place") == 1...1)
        // event_versions { name: "a" oldest: 3 newest: 2 }
        #expect {
            try RemoteRegistryNames.read([0x2A, 0x07, 0x0A, 0x01, 0x61, 0x10, 0x03, 0x18, 0x02])
        } throws: { error in
            "\(error)".contains("RegisteredNames.event_versions of \"a\" is 3...2")
        }
        // wire_versions { oldest: 0 newest: 3 }
        #expect {
            try RemoteRegistryNames.read([0x32, 0x02, 0x18, 0x03])
        } throws: { error in
            "\(error)".contains("RegisteredNames.wire_versions is 0...3")
        }
    }

    @Test("fields a newer writer added are skipped, whatever their wire type")
    func skipsUnknownFields() throws {
        let plain = bytes(hex: try #require(reference["request.plain"]))
        // Field 99 varint 1; field 100 bytes "hi"; field 101 fixed64; field 102 fixed32.
        let unknown: [UInt8] =
            [0x98, 0x06, 0x01, 0xA2, 0x06, 0x02, 0x68, 0x69, 0xA9, 0x06]
            + [UInt8](repeating: 7, count: 8) + [0xB5, 0x06, 1, 2, 3, 4]
        let read = try RemoteRequest(serializedBytes: unknown + plain + unknown)
        #expect(read.serializedBytes() == plain)
    }

    @Test(
        "bytes that are not a message of the schema are refused with what is wrong",
        arguments: [
            ("truncated", Array(bytes(hex: reference["request.full"]!).dropLast()), "are left"),
            ("without its event", [0x08, 0x02], "RemoteRequest.event"),
            ("a wire type protobuf does not have", [0x0F], "wire type 7"),
            ("a string that is not UTF-8", [0x12, 0x01, 0xFF], "UTF-8"),
            ("a varint over ten bytes", [0x08] + [UInt8](repeating: 0xFF, count: 11), "ten bytes"),
            ("field number zero", [0x00, 0x01], "field number 0"),
            ("JSON, the wire format of version 1", Array(#"{"version":1}"#.utf8), "malformed"),
            (
                "an event of schema version 0", [0x1A, 0x05, 0x0A, 0x01, 0x6E, 0x18, 0x00],
                "WireValue.schemaVersion is 0"
            ),
            (
                "an event of a schema version over 2³²",
                [0x1A, 0x09, 0x0A, 0x01, 0x6E, 0x18, 0x80, 0x80, 0x80, 0x80, 0x10],
                "WireValue.schemaVersion is 4294967296"
            ),
        ] as [(String, [UInt8], String)])
    func refusesMalformed(what: String, bytes: [UInt8], says: String) {
        #expect {
            try RemoteRequest(serializedBytes: bytes)
        } throws: { error in
            "\(error)".contains(says)
        }
    }

    @Test(
        "an embedded message that comes in parts is merged as protobuf merges it, later fields over earlier ones, repeated ones appended",
        arguments: mergedReference.keys.sorted())
    func mergesMessagesInParts(name: String) throws {
        let reference = try #require(mergedReference[name])
        func reread<Message: ProtobufMessage>(_: Message.Type) throws -> [UInt8] {
            try Message.read(bytes(hex: reference.split)).protobufBytes()
        }
        #expect(hex(try reread(mergedType(name))) == reference.merged)
    }

    @Test(
        "a request whose event comes in two parts, its name in the first and its JSON in the second, reads as one event"
    )
    func eventInTwoParts() throws {
        let split = try #require(mergedReference["request.eventInTwoParts"]?.split)
        let request = try RemoteRequest(serializedBytes: bytes(hex: split))
        #expect(request.event.name == "orders.place")
        #expect(String(decoding: request.event.json, as: UTF8.self) == #"{"sku":"A-1"}"#)
        #expect(request.source == "s")
    }

    @Test("a nested message of 128 bytes or more has its length written before it in full")
    func longNestedMessages() throws {
        for size in [125, 126, 127, 128, 16_383, 16_384, 70_000] {
            let request = RemoteRequest(
                entry: "e", event: WireValue(name: "n", json: Data(repeating: 0x61, count: size)), info: [],
                source: "s", hopsBefore: 0, timeLeftNanoseconds: nil)
            let read = try RemoteRequest(serializedBytes: request.serializedBytes())
            #expect(read.event.json.count == size)
            #expect(read.source == "s")
        }
    }
}
