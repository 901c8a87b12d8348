// The identifier's single number, replaced when identifiers became unique across processes
// (Docs/Migration.md), kept only so that code written against it fails to compile with an error
// that names the replacement. Both are unavailable: nothing can call them; their bodies say what
// the old names meant.

extension EventID {
    /// Replaced by ``init(epoch:sequence:)``: an identifier has two parts.
    @available(
        *, unavailable,
        message:
            "an identifier has two parts: 'EventID(epoch:sequence:)'; 'EventID(epoch: 0, sequence: n)' for one built by hand"
    )
    public init(rawValue: UInt64) {
        self.init(epoch: 0, sequence: rawValue)
    }

    /// Replaced by ``sequence`` (and ``epoch``).
    @available(*, unavailable, message: "an identifier has two parts: read 'sequence' and 'epoch'")
    public var rawValue: UInt64 { sequence }
}
