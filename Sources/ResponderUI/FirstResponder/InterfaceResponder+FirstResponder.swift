extension InterfaceResponder {
    /// Whether this responder is its window's first responder.
    public var isFirstResponder: Bool {
        guard let window else { return false }
        return window.firstResponder === self
    }

    /// Makes this responder its window's first responder, where key events and nil-target
    /// actions start.
    ///
    /// Refused (returns `false`, nothing changes, no hook runs) when this responder is in no
    /// window, when it cannot become first responder (``canBecomeFirstResponder``), or when the
    /// current first responder will not resign (``canResignFirstResponder``).
    ///
    /// When it takes the place of another, in this order:
    /// 1. the window's ``Window/firstResponder`` becomes `nil`;
    /// 2. the old one's ``didResignFirstResponder()`` runs;
    /// 3. ``Window/firstResponder`` becomes this responder;
    /// 4. this responder's ``didBecomeFirstResponder()`` runs.
    ///
    /// If the old one's hook changes things so that this responder can no longer take the place
    /// (it made another responder first responder, or took this one out of the window), the call
    /// returns `false` after step 2.
    @discardableResult
    public func becomeFirstResponder() -> Bool {
        guard let window, canBecomeFirstResponder else { return false }
        if window.firstResponder === self { return true }
        if let current = window.firstResponder, !current.resignFirstResponder() { return false }
        // The resigning responder's hook ran: the place must still be free, and this responder
        // still in the window.
        guard window.firstResponder == nil, self.window === window else { return false }
        window.firstResponder = self
        didBecomeFirstResponder()
        return true
    }

    /// Gives up first-responder status. Returns `false` (and stays first responder, no hook
    /// runs) when ``canResignFirstResponder`` is `false`; returns `true` if it resigned — then
    /// ``Window/firstResponder`` is `nil` and ``didResignFirstResponder()`` has run — or was not
    /// first responder.
    @discardableResult
    public func resignFirstResponder() -> Bool {
        guard let window, window.firstResponder === self else { return true }
        guard canResignFirstResponder else { return false }
        window.firstResponder = nil
        didResignFirstResponder()
        return true
    }
}
