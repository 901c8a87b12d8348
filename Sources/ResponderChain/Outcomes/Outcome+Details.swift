/// Short, cast-free access to an outcome's details, for apps and for assertions.
///
/// Each property returns the details of its case, or `nil` for any other case. An app reads one
/// case without a `switch` (`if let failure = outcome.failedDetails { … }`); with `#require` a
/// test states the outcome it expects and reads the details in one line:
///
/// ```swift
/// let outcome = await lineItem.send(ItemAdded(sku: "A-1"))
/// let handled = try #require(outcome.handledDetails)
/// #expect(handled.handlers == [ResponderID(order)])
///
/// let failed = try #require(outcome.failedError(as: ResponderChainError.self))
/// #expect(failed.code == .payloadTypeMismatch)
/// ```
extension Outcome {
    /// The details of `Outcome.handled(_:)`, or `nil`.
    public var handledDetails: Handled? {
        if case .handled(let details) = self { return details }
        return nil
    }

    /// The details of `Outcome.unhandled(_:)`, or `nil`.
    public var unhandledDetails: Unhandled? {
        if case .unhandled(let details) = self { return details }
        return nil
    }

    /// The details of `Outcome.interrupted(_:)`, or `nil`.
    public var interruptedDetails: Interruption? {
        if case .interrupted(let details) = self { return details }
        return nil
    }

    /// The details of `Outcome.cycleDetected(_:)`, or `nil`.
    public var cycleDetectedDetails: Cycle? {
        if case .cycleDetected(let details) = self { return details }
        return nil
    }

    /// The details of `Outcome.cancelled(_:)`, or `nil`.
    public var cancelledDetails: Stop? {
        if case .cancelled(let details) = self { return details }
        return nil
    }

    /// The details of `Outcome.timedOut(_:)`, or `nil`.
    public var timedOutDetails: Stop? {
        if case .timedOut(let details) = self { return details }
        return nil
    }

    /// The details of `Outcome.failed(_:)`, or `nil`.
    public var failedDetails: Failure? {
        if case .failed(let details) = self { return details }
        return nil
    }

    /// The details of `Outcome.rejected(_:)`, or `nil`.
    public var rejectedDetails: Rejection? {
        if case .rejected(let details) = self { return details }
        return nil
    }

    /// The error of a `Outcome.failed(_:)` outcome if it is an `E`, or `nil`.
    ///
    /// ```swift
    /// let mismatch = try #require(outcome.failedError(as: ResponderChainError.self))
    /// ```
    public func failedError<E: Error>(as type: E.Type) -> E? {
        failedDetails?.error as? E
    }
}
