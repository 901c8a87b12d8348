internal import ResponderChain

internal import Foundation

/// How an ``EventID`` is kept in a column: its bytes, so that an identifier of any width fits the
/// same `BLOB` column.
extension EventID {
    /// The identifier's bytes (big-endian, so that byte order is identifier order).
    var columnBytes: Data {
        withUnsafeBytes(of: rawValue.bigEndian) { Data($0) }
    }

    /// The identifier whose bytes are `bytes`, or `nil` if they are not an identifier's.
    init?(columnBytes bytes: Data) {
        guard bytes.count == MemoryLayout<UInt64>.size else { return nil }
        self.init(rawValue: bytes.reduce(0) { $0 << 8 | UInt64($1) })
    }
}
