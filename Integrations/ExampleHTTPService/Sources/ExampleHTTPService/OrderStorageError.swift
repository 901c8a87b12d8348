/// A storage setting ``OrderStorage/init(environment:)`` does not know.
public enum OrderStorageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `variable` holds `value`, which is not one of its values.
    case unknownValue(String, of: String)
    /// `variable` is not set, and has no default.
    case missingValue(of: String)

    /// `ORDERS_STORAGE=postgres is not a known value`.
    public var description: String {
        switch self {
        case .unknownValue(let value, let variable): "\(variable)=\(value) is not a known value"
        case .missingValue(let variable): "\(variable) must be set"
        }
    }
}
