extension View {
    /// The gesture recognizers attached to this view, in the order they were added: the order
    /// they get each pointer event in (after those of the views below, before those of the
    /// views above).
    public var gestureRecognizers: [GestureRecognizer] { recognizers }

    /// Attaches `recognizer` to this view (taking it from the view it was attached to): it gets
    /// the pointer sequences that begin on this view or below it, before the views do.
    ///
    /// ```swift
    /// let doubleTap = TapGestureRecognizer(label: "zoom", numberOfTapsRequired: 2)
    /// doubleTap.addChainEvent { _ in ZoomToggled() }
    /// photo.addGestureRecognizer(doubleTap)
    /// ```
    public final func addGestureRecognizer(_ recognizer: GestureRecognizer) {
        if let old = recognizer.view {
            guard old !== self else { return }
            old.removeGestureRecognizer(recognizer)
        }
        recognizer.view = self
        recognizers.append(recognizer)
    }

    /// Detaches `recognizer` from this view. An attempt under way ends: cancelled if it had
    /// begun, failed otherwise, with ``GestureAttempt/Reason/removed``.
    public final func removeGestureRecognizer(_ recognizer: GestureRecognizer) {
        guard recognizer.view === self else { return }
        recognizer.coordinator?.recognizerLeft(recognizer, reason: .removed)
        recognizers.removeAll { $0 === recognizer }
        recognizer.view = nil
    }
}
