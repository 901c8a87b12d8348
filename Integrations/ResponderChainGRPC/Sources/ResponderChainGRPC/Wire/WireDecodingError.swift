/// Why bytes could not be read as a message of the wire format (``WireFormat``): what is wrong,
/// in a few words.
///
/// ```swift
/// do {
///     let request = try RemoteRequest(serializedBytes: bytes)
/// } catch {
///     print(error)   // malformed protobuf: a field of 17 bytes where 16 are left
/// }
/// ```
public struct WireDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public let description: String

    static func malformed(_ what: String) -> Self {
        Self(description: "malformed protobuf: \(what)")
    }

    static func missing(_ field: String) -> Self {
        Self(description: "the required field \(field) is missing")
    }
}
