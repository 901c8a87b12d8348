/// A key, named by the text it types (`"a"`) or by a well-known name (``return``).
public struct Key: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The key's text or name.
    public let rawValue: String

    /// A key named `rawValue`.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// A key from a literal: `"a"`.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// Return / Enter.
    public static let `return` = Key("return")
    /// Escape.
    public static let escape = Key("escape")
    /// Tab.
    public static let tab = Key("tab")

    /// The key's text or name.
    public var description: String { rawValue }
}
