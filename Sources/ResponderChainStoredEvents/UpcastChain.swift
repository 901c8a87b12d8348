internal import struct Foundation.Data
internal import class Foundation.JSONDecoder

/// The steps that carry the rows of one event type's older schema versions to its current type,
/// checked when they are registered: one step from each version in `oldest ..< current`, each
/// making the shape the next one reads, and the last making the current type. A row older
/// than `oldest` has no reader (its version was retired); a row newer than `current` is not
/// read here.
struct UpcastChain: Sendable {
    /// The oldest version read; `current` when there are no steps.
    let oldest: Int
    /// The version of the current type.
    let current: Int
    /// The steps, `steps[i]` reading version `oldest + i`.
    private let steps: [EventUpcast]

    /// Why a row did not come through the chain.
    enum Failure: Error {
        /// The row's bytes did not decode as its version's shape.
        case undecodable(version: Int, shape: String, error: any Error)
        /// A step threw.
        case stepThrew(version: Int, error: any Error)
        /// A step was given a value of another shape (never, the shapes were checked).
        case shapeMismatch(version: Int)
    }

    /// The chain of `upcasts` to `currentType` at version `current`, registered as `name`.
    ///
    /// - Throws: ``StoredEventsError`` when a step reads no older version than `current`, two
    ///   read the same version, a version between the oldest and `current` has none, one
    ///   step's shape is not the next one's (or the last's not `currentType`), or there are more
    ///   than ``EventUpcast/maximumSteps``.
    init<Current>(
        _ upcasts: [EventUpcast], to currentType: Current.Type, version current: Int, name: String
    ) throws(StoredEventsError) {
        guard upcasts.count <= EventUpcast.maximumSteps else {
            throw .tooManyUpcasts(name, count: upcasts.count)
        }
        var byVersion: [Int: EventUpcast] = [:]
        for upcast in upcasts {
            guard upcast.version >= 1, upcast.version < current else {
                throw .upcastVersionOutOfRange(name, version: upcast.version, current: current)
            }
            guard byVersion.updateValue(upcast, forKey: upcast.version) == nil else {
                throw .duplicateUpcast(name, version: upcast.version)
            }
        }
        let oldest = byVersion.keys.min() ?? current
        var steps: [EventUpcast] = []
        for version in oldest..<current {
            guard let step = byVersion[version] else { throw .missingUpcast(name, version: version) }
            steps.append(step)
        }
        let finalShape = EventUpcast.Shape(currentType)
        for (index, step) in steps.enumerated() {
            let next = index + 1 < steps.count ? steps[index + 1].reads : finalShape
            guard step.makes.id == next.id else {
                throw .upcastShapesDiffer(
                    name, version: step.version, makes: step.makes.name, nextReads: next.name)
            }
        }
        self.oldest = oldest
        self.current = current
        self.steps = steps
    }

    /// Whether the chain reads rows of `version` (older than ``current``).
    func reads(_ version: Int) -> Bool {
        version >= oldest && version < current
    }

    /// A row of `version` (one that ``reads(_:)``), decoded as its shape and carried through
    /// every later step: a value of the current type.
    func upcast(_ bytes: Data, from version: Int, with decoder: JSONDecoder) throws(Failure) -> any Sendable {
        let first = steps[version - oldest]
        var value: any Sendable
        do {
            value = try first.decode(bytes, decoder)
        } catch {
            throw .undecodable(version: version, shape: first.reads.name, error: error)
        }
        for step in steps[(version - oldest)...] {
            let made: (any Sendable)?
            do {
                made = try step.apply(value)
            } catch {
                throw .stepThrew(version: step.version, error: error)
            }
            guard let made else { throw .shapeMismatch(version: step.version) }
            value = made
        }
        return value
    }
}
