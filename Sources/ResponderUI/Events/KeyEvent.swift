/// A key going down or up. Windows send key events from their first responder (or from
/// themselves when there is none); unhandled, they bubble up the chain.
///
/// ```swift
/// field.strategies.on(KeyEvent.self) { field, key, context in
///     guard key.phase == .down, key.key == .return else { return .pass }
///     field.submit()
///     return .handled
/// }
/// ```
public struct KeyEvent: Event, Hashable {
    /// Which key went down or up.
    public let key: Key
    /// Down or up.
    public let phase: KeyPhase
    /// The modifier keys held.
    public let modifiers: KeyModifiers

    /// A key event.
    public init(_ key: Key, phase: KeyPhase = .down, modifiers: KeyModifiers = []) {
        self.key = key
        self.phase = phase
        self.modifiers = modifiers
    }

    /// `KeyEvent.down`, for traces.
    public var traceName: String { "KeyEvent.\(phase)" }
}
