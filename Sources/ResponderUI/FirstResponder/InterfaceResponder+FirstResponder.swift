extension InterfaceResponder {
    /// Whether this responder is its window's first responder.
    public var isFirstResponder: Bool {
        guard let window else { return false }
        return window.firstResponder === self
    }

    /// Makes this responder its window's first responder, where key events and nil-target
    /// actions start.
    ///
    /// Refused (returns `false`, nothing changes) when this responder is in no window, when it
    /// cannot become first responder (``canBecomeFirstResponder``), or when the current first
    /// responder will not resign (``canResignFirstResponder``).
    @discardableResult
    public func becomeFirstResponder() -> Bool {
        guard let window, canBecomeFirstResponder else { return false }
        if window.firstResponder === self { return true }
        if let current = window.firstResponder, !current.resignFirstResponder() { return false }
        window.firstResponder = self
        return true
    }

    /// Gives up first-responder status. Returns `false` (and stays first responder) when
    /// ``canResignFirstResponder`` is `false`; returns `true` if it resigned or was not first
    /// responder.
    @discardableResult
    public func resignFirstResponder() -> Bool {
        guard let window, window.firstResponder === self else { return true }
        guard canResignFirstResponder else { return false }
        window.firstResponder = nil
        return true
    }
}
