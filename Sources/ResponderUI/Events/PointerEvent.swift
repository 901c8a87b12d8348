/// One phase of one pointer (a finger, a mouse button, a pen) as the chain receives it.
///
/// A window turns raw input into these: it hit-tests at ``PointerPhase/began``, binds the
/// pointer's sequence to the view it found, and sends every later phase of that pointer to that
/// view, even when the pointer has moved outside it. Several pointers can be down at once, each
/// bound to its own view (multi-touch); ``pointer`` tells them apart.
///
/// ```swift
/// view.strategies.on(PointerEvent.self) { view, pointer, context in
///     guard pointer.phase == .ended else { return .pass }
///     let local = view.convert(pointer.location, from: nil)
///     …
/// }
/// ```
public struct PointerEvent: Event, Hashable {
    /// Which pointer this is; the same for every phase of one sequence.
    public let pointer: PointerID
    /// Where this event is in its sequence: `began`, any number of `moved`, then `ended` or
    /// `cancelled`.
    public let phase: PointerPhase
    /// Where the pointer is, in window coordinates (convert it with
    /// ``View/convert(_:from:)->Point`` passing `nil`).
    public let location: Point
    /// Why the sequence was cancelled, for a ``PointerPhase/cancelled`` event.
    public let cancellation: PointerCancellation?

    /// A pointer event.
    public init(
        pointer: PointerID = .primary,
        phase: PointerPhase,
        location: Point,
        cancellation: PointerCancellation? = nil
    ) {
        self.pointer = pointer
        self.phase = phase
        self.location = location
        self.cancellation = cancellation
    }

    /// `PointerEvent.began`, for traces.
    public var traceName: String { "PointerEvent.\(phase)" }
}
