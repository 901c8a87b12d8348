extension View {
    /// Takes over `pointer`'s sequence from the view it is bound to, a view in this view's
    /// subtree: the way a scroll view claims a drag that began on a button in it (a gesture
    /// recognizer in UIKit, `onInterceptTouchEvent` on Android).
    ///
    /// ```swift
    /// // A drag that began on a row has gone far enough down: the list scrolls instead.
    /// list.strategies.on(PointerEvent.self) { list, pointer, _ in
    ///     guard pointer.phase == .moved, list.isScrollGesture(pointer) else { return .pass }
    ///     try list.takeOver(pointer.pointer)  // the row is told `cancelled` (.takenOver)
    ///     return .handled                     // this moved stops here; the next one comes to list
    /// }
    /// ```
    ///
    /// In this order:
    /// 1. every `began` and `moved` of the sequence still under way is withdrawn (it stops at
    ///    the end of the hop it is in, its outcome `Outcome.cancelled(_:)` with reason
    ///    `Outcome.Stop.Reason.withdrawn`) — including the one whose handler calls this, so no
    ///    responder above the caller's hop sees it;
    /// 2. the gesture recognizers of the views strictly below this one that compete for the
    ///    pointer end their attempts at once (``GestureAttempt/Reason/inputCancelled(_:)``
    ///    ``PointerCancellation/takenOver``); this view's own recognizers, and those above it,
    ///    go on;
    /// 3. the sequence is bound to this view: ``Window/boundView(for:)`` reports it, and every
    ///    later phase (`moved`, `ended`, `cancelled`) is sent up the chain from it;
    /// 4. the view it was bound to is sent a ``PointerPhase/cancelled`` event with
    ///    ``PointerEvent/cancellation`` ``PointerCancellation/takenOver``, up its chain like any
    ///    pointer event, but only through the responders still below this view: the first
    ///    interface responder that is not (normally this view) ends the send, handled, without
    ///    running anything. This view and what is above it are never told.
    ///
    /// Steps 1 to 3 are done when this returns; the send of step 4 has run every hop it reached
    /// without suspending (see Docs/WindowLayer.md, "Cancellation").
    ///
    /// So the view it was bound to gets exactly one `cancelled` and nothing after it, and the
    /// rest of the sequence is this view's. A further ancestor can take the sequence over from
    /// this view in turn. If this view later leaves the window, or the window is detached, the
    /// sequence is cancelled and this view is told; the view it was taken from is never told
    /// again.
    ///
    /// - Parameter pointer: the pointer whose sequence, in this view's window, to take over.
    /// - Throws: ``PointerTakeOverError``, having changed nothing, when this view is in no
    ///   window (``PointerTakeOverError/notInWindow``), the pointer has no sequence in progress
    ///   there (``PointerTakeOverError/noSequence``), the sequence is already bound to this view
    ///   (``PointerTakeOverError/alreadyBound``), or the view it is bound to is not in this
    ///   view's subtree (``PointerTakeOverError/notAnAncestor``).
    public final func takeOver(_ pointer: PointerID) throws(PointerTakeOverError) {
        guard let window else { throw .notInWindow }
        try window.takeOver(pointer, by: self)
    }
}
