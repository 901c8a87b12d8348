extension TestStore {
    /// Whether a store's ``TestStore/finish(runningClock:sourceLocation:)`` fails the test for
    /// what the test did not assert.
    ///
    /// ```swift
    /// let store = TestStore(exhaustivity: .off)   // check only what the test asserts
    /// ```
    public enum Exhaustivity: Hashable, Sendable {
        /// Every ending, shutdown report and observed element must be asserted, and nothing may
        /// be under way at the end (no timer scheduled, no post outstanding): each kind left
        /// fails the test with an issue naming it.
        case on
        /// Only what the test asserts is checked. With `showSkippedAssertions`, what `finish`
        /// would have failed for is recorded as known issues, so the test report shows it
        /// without failing.
        case off(showSkippedAssertions: Bool)

        /// ``off(showSkippedAssertions:)`` that skips silently.
        public static var off: Exhaustivity { .off(showSkippedAssertions: false) }
    }
}
