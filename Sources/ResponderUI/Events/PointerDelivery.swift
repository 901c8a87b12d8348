/// What a window did with one phase of pointer input: the view the sequence is bound to, and
/// the outcome of the event it sent up the chain from there.
public struct PointerDelivery: Sendable {
    /// The view the event started at (the view hit at ``PointerPhase/began``).
    public let target: View
    /// The event that was sent.
    public let event: PointerEvent
    /// How the send ended: ``Outcome/cancelled(_:)`` with reason
    /// ``Outcome/Stop/Reason/withdrawn`` when the window withdrew the event while it was under
    /// way (its sequence was cancelled, or a later phase of it was sent).
    public let outcome: Outcome
}
