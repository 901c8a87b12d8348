extension Application {
    /// Sends `action` with no target: it starts at the first responder of `sender`'s window (of
    /// the key window, without a sender), or at `sender` when that window has no first
    /// responder, and goes up the chain until a responder handles it.
    ///
    /// ```swift
    /// struct Copy: Event {}
    /// editor.strategies.on(Copy.self) { editor, _, _ in editor.copySelection(); return .handled }
    ///
    /// await app.sendAction(Copy(), from: menuItem)
    /// ```
    @discardableResult
    public func sendAction(_ action: some Event, from sender: InterfaceResponder? = nil) async -> Outcome {
        let start = actionStart(from: sender)
        return await start.send(action)
    }

    /// The responder a nil-target `action` would reach first among those that can perform it,
    /// found without running any handler: the same walk as ``sendAction(_:from:)``, asking each
    /// responder on the way (an interface responder through
    /// ``InterfaceResponder/canPerform(_:)``, any other through its `strategies` table, proxy
    /// included). That is where ``sendAction(_:from:)`` would be handled, as long as the handlers
    /// found handle what they are registered for and no catch-all below claims the action first.
    /// `nil` if none can.
    ///
    /// ```swift
    /// copyButton.isEnabled = await app.target(forAction: Copy.self, from: copyButton) != nil
    /// ```
    public func target<Action: Event>(forAction action: Action.Type, from sender: InterfaceResponder? = nil)
        async -> (any Responder)?
    {
        var current: (any Responder)? = actionStart(from: sender)
        var visited: Set<ObjectIdentifier> = []
        while let responder = current, visited.insert(ObjectIdentifier(responder)).inserted {
            if await ActionLookup.responder(responder, performs: action) { return responder }
            current = await responder.next
        }
        return nil
    }

    private func actionStart(from sender: InterfaceResponder?) -> InterfaceResponder {
        let window = sender?.window ?? keyWindow
        return window?.firstResponder ?? sender ?? window ?? self
    }
}
