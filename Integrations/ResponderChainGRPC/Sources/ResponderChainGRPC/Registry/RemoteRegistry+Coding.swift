import ResponderChain

internal import struct Foundation.Data

extension RemoteRegistry {
    /// `event` on the wire, or the error that keeps it from crossing.
    func write(_ event: any Event) throws(RemoteLinkError) -> WireValue {
        guard let coding = eventsByType[ObjectIdentifier(type(of: event))] else {
            throw .unregisteredEvent(String(reflecting: type(of: event)))
        }
        do {
            return WireValue(name: coding.name, json: try coding.encode(event))
        } catch {
            throw .unencodable("\(coding.name): \(error)")
        }
    }

    /// The event written under `value.name`.
    func read(_ value: WireValue) throws(RemoteRefusal) -> any Event {
        guard let coding = eventsByName[value.name] else { throw .unknownEvent(value.name) }
        do {
            return try coding.decode(value.json)
        } catch {
            throw .undecodable("event \"\(value.name)\": \(error)")
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
