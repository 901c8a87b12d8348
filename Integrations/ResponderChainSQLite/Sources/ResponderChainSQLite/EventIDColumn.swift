internal import Foundation
internal import ResponderChain

/// How an ``EventID`` is kept in a column: 16 bytes, the identifier's epoch then its sequence
/// number, each big-endian (so that byte order is identifier order).
extension EventID {
    /// The identifier's 16 bytes.
    var columnBytes: Data {
        var bytes = Data(count: 16)
        bytes.withUnsafeMutableBytes { buffer in
            buffer.storeBytes(of: epoch.bigEndian, toByteOffset: 0, as: UInt64.self)
            buffer.storeBytes(of: sequence.bigEndian, toByteOffset: 8, as: UInt64.self)
        }
        return bytes
    }

    /// The identifier whose bytes are `bytes`, or `nil` if they are not an identifier's.
    init?(columnBytes bytes: Data) {
        guard bytes.count == 16 else { return nil }
        let epoch = bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let sequence = bytes.suffix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        self.init(epoch: epoch, sequence: sequence)
    }
}
