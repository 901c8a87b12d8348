/// The responders a system's stored posts may start at, each under the name its stored posts
/// carry (``EventSystem/register(_:as:)``): a name means the same responder after a restart,
/// where an object would not.
struct EntryNames {
    private var responders: [String: any Responder] = [:]
    private var names: [ObjectIdentifier: String] = [:]

    /// The responder registered under `name`.
    func responder(named name: String) -> (any Responder)? { responders[name] }

    /// The name `responder` is registered under.
    func name(of responder: any Responder) -> String? { names[ObjectIdentifier(responder)] }

    /// Registers `responder` under `name`, in place of whichever responder had it; fails if
    /// `responder` already has another name.
    mutating func register(_ responder: any Responder, as name: String) throws(ResponderChainError) {
        let id = ObjectIdentifier(responder)
        if let existing = names[id], existing != name {
            throw .entryRenamed(ResponderID(responder), from: existing, to: name)
        }
        if let previous = responders[name] { names[ObjectIdentifier(previous)] = nil }
        responders[name] = responder
        names[id] = name
    }
}
