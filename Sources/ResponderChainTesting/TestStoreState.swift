import ResponderChain

/// What the store keeps besides its records.
struct TestStoreState: Sendable {
    var exhaustivity: TestStore.Exhaustivity = .on
    var waitLimit: Duration = .seconds(10)
    /// The shutdown the store began, if it did.
    var shutdown: TestStoreShutdown?
    /// The observation streams a test opened through the store.
    var outcomeStreams: [ObservationStream<EventSystem.FinishedSend>] = []
    var deadLetterStreams: [ObservationStream<DeadLetter>] = []
    /// Whether ``TestStore/finish(runningClock:sourceLocation:)`` has run.
    var isFinished = false
}

/// A shutdown the store began: its report, once the shutdown has returned.
struct TestStoreShutdown: Sendable {
    let gracePeriod: Duration
    let returned: Gate
    var report: EventSystem.ShutdownReport?
    var isAsserted = false
}
