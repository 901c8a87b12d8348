/// The one way the window layer finds out, without running any handler, whether a responder
/// performs an action: the entries of the handler table a hop would run, then that table's proxy,
/// asked the same way (an interface responder through ``InterfaceResponder/canPerform(_:)``).
/// Catch-alls never count: what they decide is known only by running them.
@MainActor
enum ActionLookup {
    /// The responders whose tables are being asked in this task, innermost last: a proxy that
    /// leads back to one of them adds nothing, so a proxy cycle cannot make the lookup recurse
    /// forever.
    @TaskLocal static var beingAsked: Set<ObjectIdentifier> = []

    /// Whether `responder` performs `action`.
    static func responder(_ responder: any Responder, performs action: (some Event).Type) async -> Bool {
        if let interface = responder as? InterfaceResponder {
            return await interface.canPerform(action)
        }
        func ask<R: Responder>(_ responder: R) async -> Bool {
            // A responder runs its instance's table (the type's unless it has its own), whose
            // owner it is (the default `handle` runs `strategies` on `self`).
            guard let owner = responder as? R.StrategyOwner else { return false }
            return await table(responder.strategies, of: owner, performs: action)
        }
        return await ask(responder)
    }

    /// Whether `table`, run at `owner`, has an entry for `action`, or else its proxy performs it.
    static func table<Owner: Responder>(
        _ table: Strategies<Owner>, of owner: Owner, performs action: (some Event).Type
    ) async -> Bool {
        if table.handles(action) { return true }
        let id = ObjectIdentifier(owner)
        guard !beingAsked.contains(id), let proxy = await table.proxy(for: owner) else { return false }
        return await $beingAsked.withValue(beingAsked.union([id])) {
            await responder(proxy, performs: action)
        }
    }
}
