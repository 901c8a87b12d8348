internal import struct Foundation.Data
internal import class Foundation.JSONDecoder

/// One step from an earlier shape of a stored event to the next one: how a row written with
/// schema version `version`, read as `Old`, becomes the shape of version `version + 1`.
///
/// Register the steps with the event's current type (see
/// ``StoredEvents/register(_:as:version:upcasting:readingAheadTo:)``): a row of an older version is read as
/// that version's shape and carried through every later step, so that each change is written
/// once, against the shape before it.
///
/// ```swift
/// struct OrderPlacedV1: Decodable, Sendable { var order: String }
/// struct OrderPlacedV2: Decodable, Sendable { var order: String; var quantity: Int }
///
/// try events.register(OrderPlaced.self, as: "order-placed", version: 3, upcasting: [
///     EventUpcast(from: 1, OrderPlacedV1.self) { OrderPlacedV2(order: $0.order, quantity: 1) },
///     EventUpcast(from: 2, OrderPlacedV2.self) { OrderPlaced(id: $0.order, quantity: $0.quantity) },
/// ])
/// ```
public struct EventUpcast: Sendable, CustomStringConvertible {
    /// The most steps one event type may have: rows older than that many versions are retired
    /// (drained, or dead-lettered) rather than carried through an ever longer chain.
    public static let maximumSteps = 16

    /// The schema version this step reads.
    public let version: Int

    /// The shape this step reads, and the one it makes.
    let reads: Shape
    let makes: Shape
    /// Reads a row of ``version`` as the old shape.
    let decode: @Sendable (Data, JSONDecoder) throws -> any Sendable
    /// The step itself; `nil` when given a value of another shape than the one it reads (never,
    /// once a chain's shapes are checked to line up).
    let apply: @Sendable (any Sendable) throws -> (any Sendable)?

    /// A type, by identity and by name (for the refusals that name it).
    struct Shape: Sendable {
        let id: ObjectIdentifier
        let name: String

        init<T>(_ type: T.Type) {
            id = ObjectIdentifier(type)
            name = String(reflecting: type)
        }
    }

    /// The step from schema version `version`, whose rows read as `old`, to the next version's
    /// shape `new`: the next step's old shape, or, for the last step, the event's current type.
    ///
    /// - Parameters:
    ///   - version: The schema version this step reads (1 or more).
    ///   - old: The shape rows of `version` decode as: a type kept for reading them.
    ///   - new: The shape of version `version + 1` (inferred from `step`).
    ///   - step: Makes the next shape from the old one. A throw ends the row undecodable, with
    ///     the error in its reason; nothing traps.
    public init<Old: Decodable & Sendable, New: Sendable>(
        from version: Int, _ old: Old.Type, to new: New.Type = New.self,
        _ step: @escaping @Sendable (Old) throws -> New
    ) {
        self.version = version
        reads = Shape(old)
        makes = Shape(new)
        decode = { bytes, decoder in try decoder.decode(Old.self, from: bytes) }
        apply = { value in
            guard let old = value as? Old else { return nil }
            return try step(old)
        }
    }

    /// The step in words: `the upcast from version 1: OrderPlacedV1 → OrderPlacedV2`.
    public var description: String {
        "the upcast from version \(version): \(reads.name) → \(makes.name)"
    }
}
