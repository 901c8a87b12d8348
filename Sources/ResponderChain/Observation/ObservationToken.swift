/// Keeps one stream open while a stream value or an iterator holds it, and closes it when the
/// last one is gone.
final class ObservationToken<Element: Sendable>: Sendable {
    let registry: ObserverRegistry<Element>
    let subscription: ObservationSubscription<Element>

    init(registry: ObserverRegistry<Element>, buffering: ObservationBuffering) {
        self.registry = registry
        self.subscription = registry.subscribe(buffering: buffering)
    }

    /// Closes the stream: it receives nothing more.
    func close() {
        registry.unsubscribe(subscription)
    }

    deinit {
        registry.unsubscribe(subscription)
    }
}
