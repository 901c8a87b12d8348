// The coverage-guided fuzz target of the wire format's readers (libFuzzer): every reader of
// bytes a peer sends, and what the link makes of a reply. Built by `.ci/fuzz` together with the
// reader's sources, into the module `ResponderChainGRPC` (the readers are internal), as
// `wire-fuzz`; `WIRE_FUZZ_TARGET` names the reader each run feeds:
//
//   request          RemoteRequest(serializedBytes:), and the registry's reading of its values
//   reply            RemoteReply(serializedBytes:), and the outcome the link makes of it
//   ordered-request  an OrderedRequest frame, and OrderedRequest.leadingSequence(of:)
//   ordered-reply    an OrderedReply frame, and the outcome the link makes of its reply
//   registry-names   RemoteRegistryNames (a server's RegistryNames answer, versions included)
//
// Every input must end in a value or a typed error: a trap, a hang or memory beyond the run's
// limit is a finding. What reads also writes back the same bytes it would read again.

import ResponderChain
import ResponderChainStoredEvents

internal import struct Foundation.Data
internal import Glibc

/// An event the fuzzed registry knows, at schema version 2.
private struct Ping: Event, Codable {
    var count: Int
    var note: String?
}

/// Version 1 of ``Ping``, read through an upcast.
private struct PingV1: Decodable, Sendable {
    var count: Int
}

/// Information the fuzzed registry knows.
private enum Tag: InfoKey {
    typealias Value = [String: Int]
}

/// The readers the target feeds, by `WIRE_FUZZ_TARGET`.
private enum WireFuzzTarget: String {
    case request
    case reply
    case orderedRequest = "ordered-request"
    case orderedReply = "ordered-reply"
    case registryNames = "registry-names"

    /// The reader this run feeds.
    static let current: WireFuzzTarget = {
        let name = getenv("WIRE_FUZZ_TARGET").map { String(cString: $0) } ?? ""
        guard let target = WireFuzzTarget(rawValue: name) else {
            fatalError(
                "set WIRE_FUZZ_TARGET to request, reply, ordered-request, ordered-reply or registry-names, not \"\(name)\""
            )
        }
        return target
    }()

    /// The registry the values are read with.
    static let registry: RemoteRegistry = {
        var registry = RemoteRegistry()
        do {
            try registry.register(
                Ping.self, as: "ping", version: 2,
                upcasting: [EventUpcast(from: 1, PingV1.self) { Ping(count: $0.count) }],
                readingAheadTo: 3)
            try registry.register(info: Tag.self, as: "tag")
        } catch {
            fatalError("\(error)")
        }
        return registry
    }()
}

/// Reads `bytes` as the message `Message`; when they are one, checks that writing it and reading
/// it again gives the same message, byte for byte.
private func read<Message: ProtobufMessage>(_ bytes: UnsafeRawBufferPointer, as _: Message.Type) -> Message? {
    guard let message = try? Message(serializedBytes: bytes) else { return nil }
    let written = message.protobufBytes()
    guard let again = try? Message.read(written) else {
        fatalError("\(Message.self): what was written is not read again: \(written)")
    }
    guard again.protobufBytes() == written else {
        fatalError("\(Message.self): written differently when read again: \(written)")
    }
    return message
}

/// What the link makes of `reply`: an outcome, or the typed error that stands for it. An
/// outcome leaves room for this side's hops, which the send adds to its hops and hop.
private func outcome(of reply: RemoteReply) {
    // A directory per input: it keeps every responder it has seen.
    guard
        let outcome = try? Outcome(
            reply, eventID: EventID(epoch: 0, sequence: 1), registry: WireFuzzTarget.registry,
            responders: RemoteResponderDirectory())
    else { return }
    let hop: Int? =
        switch outcome {
        case .cancelled(let stop), .timedOut(let stop): stop.hop
        case .failed(let failure): failure.hop
        default: nil
        }
    guard outcome.hops <= WireOutcome.maxHops, (hop ?? 0) <= WireOutcome.maxHops else {
        fatalError("an outcome this side cannot add its hops to: \(outcome)")
    }
}

/// libFuzzer's entry: feeds `count` bytes at `start` to the reader `WIRE_FUZZ_TARGET` names.
/// Always 0 (every input is kept or dropped by coverage alone).
@_cdecl("LLVMFuzzerTestOneInput")
public func wireFuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    switch WireFuzzTarget.current {
    case .request:
        guard let request = read(bytes, as: RemoteRequest.self) else { break }
        _ = try? WireFuzzTarget.registry.read(request.event)
        var info = EventInfo()
        _ = try? WireFuzzTarget.registry.read(request.info, into: &info)
    case .reply:
        guard let reply = read(bytes, as: RemoteReply.self) else { break }
        outcome(of: reply)
    case .orderedRequest:
        _ = OrderedRequest.leadingSequence(of: bytes)
        _ = read(bytes, as: OrderedRequest.self)
    case .orderedReply:
        guard let frame = read(bytes, as: OrderedReply.self) else { break }
        outcome(of: frame.reply)
    case .registryNames:
        guard let names = read(bytes, as: RemoteRegistryNames.self) else { break }
        for event in names.events { _ = names.versions(ofEvent: event) }
        _ = names.description
    }
    return 0
}
