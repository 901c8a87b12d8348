/// Asks any responder, whatever its isolation, whether its static table handles a type.
enum ActionLookup {
    /// Whether `responder`'s ``Responder/strategies`` has a handler for `action`.
    static func hasStaticHandler<Action: Event>(_ responder: any Responder, for action: Action.Type)
        -> Bool
    {
        func check<R: Responder>(_ responder: R) -> Bool {
            R.strategies.handles(action)
        }
        return check(responder)
    }
}
