extension Application {
    /// Sends `action` with no target: it starts at the first responder of `sender`'s window (of
    /// the key window, without a sender), or at `sender` when that window has no first
    /// responder, and goes up the chain until a responder handles it.
    ///
    /// ```swift
    /// struct Copy: Event {}
    /// editor.handlers.on(Copy.self) { editor, _, _ in editor.copySelection(); return .handled }
    ///
    /// await app.sendAction(Copy(), from: menuItem)
    /// ```
    @discardableResult
    public func sendAction(_ action: some Event, from sender: InterfaceResponder? = nil) async -> Outcome {
        let start = actionStart(from: sender)
        return await start.send(action, options: sendOptions)
    }

    /// The responder a nil-target `action` would reach first among those that can perform it,
    /// found without running any handler: the same walk as ``sendAction(_:from:)``, asking
    /// ``InterfaceResponder/canPerform(_:)`` of interface responders and the static table of
    /// any other responder (such as the delegate). `nil` if none can.
    public func target<Action: Event>(forAction action: Action.Type, from sender: InterfaceResponder? = nil)
        async -> (any Responder)?
    {
        var current: (any Responder)? = actionStart(from: sender)
        var visited: Set<ObjectIdentifier> = []
        while let responder = current, visited.insert(ObjectIdentifier(responder)).inserted {
            if let interface = responder as? InterfaceResponder {
                if interface.canPerform(action) { return responder }
            } else if ActionLookup.hasStaticHandler(responder, for: action) {
                return responder
            }
            current = await responder.next
        }
        return nil
    }

    private func actionStart(from sender: InterfaceResponder?) -> InterfaceResponder {
        let window = sender?.window ?? keyWindow
        return window?.firstResponder ?? sender ?? window ?? self
    }
}
