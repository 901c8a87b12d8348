import ResponderChain
import ResponderChainStoredEvents

internal import struct Foundation.Data

extension RemoteRegistry {
    /// `event` on the wire, with its schema version, or the error that keeps it from crossing.
    func write(_ event: any Event) throws(RemoteLinkError) -> WireValue {
        do {
            let (name, version, json) = try events.encode(event)
            return WireValue(name: name, json: json, schemaVersion: version)
        } catch {
            switch error {
            case .encodingFailed(_, let reason):
                throw .unencodable("\(events.name(of: type(of: event)) ?? "\(type(of: event))"): \(reason)")
            default:
                throw .unregisteredEvent(String(reflecting: type(of: event)))
            }
        }
    }

    /// The event written under `value.name`, carried to the registered type from an older
    /// schema version by its upcasts; refused when the name is registered to no type, the
    /// version is newer than the registered one, or the value does not read.
    func read(_ value: WireValue) throws(RemoteRefusal) -> any Event {
        guard let versions = events.versions(of: value.name) else { throw .unknownEvent(value.name) }
        guard value.schemaVersion <= versions.upperBound else {
            throw .newerSchemaVersion(
                event: value.name, version: value.schemaVersion, newest: versions.upperBound)
        }
        switch events.decode(name: value.name, version: value.schemaVersion, bytes: value.json) {
        case .event(let event): return event
        case .undecodable(let unreadable): throw .undecodable("event \"\(value.name)\": \(unreadable.reason)")
        }
    }

    /// The registered values of `info` on the wire, and the ``InfoKey/name``s of the values
    /// that are not registered (kept-local ones included).
    func write(_ info: EventInfo) throws(RemoteLinkError) -> (values: [WireValue], unregistered: [String]) {
        var values: [WireValue] = []
        var written: Set<String> = []
        for coding in infoByName.values.sorted(by: { $0.name < $1.name }) {
            let json: Data?
            do {
                json = try coding.encode(info)
            } catch {
                throw .unencodable("information \"\(coding.name)\": \(error)")
            }
            guard let json else { continue }
            values.append(WireValue(name: coding.name, json: json))
            written.insert(coding.keyName)
        }
        let unregistered = info.keyNames.filter { !written.contains($0) && $0 != ArrivedAwaited.name }
        return (values, unregistered)
    }

    /// The registered values of `info` on the wire, for a request: a value under a key that is
    /// neither registered nor kept local keeps the event from crossing.
    func writeForSending(_ info: EventInfo) throws(RemoteLinkError) -> [WireValue] {
        let (values, unregistered) = try write(info)
        let refused = unregistered.filter { !localKeyNames.contains($0) }
        guard refused.isEmpty else { throw .unregisteredInfo(refused) }
        return values
    }

    /// `values` read into `info` (over what it has).
    func read(_ values: [WireValue], into info: inout EventInfo) throws(RemoteRefusal) {
        let unknown = values.map(\.name).filter { infoByName[$0] == nil }
        guard unknown.isEmpty else { throw .unknownInfo(unknown) }
        for value in values {
            do {
                try infoByName[value.name]?.decode(value.json, &info)
            } catch {
                throw .undecodable("information \"\(value.name)\": \(error)")
            }
        }
    }
}
