#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Recognizes a rotation: two pointers turning around each other. Continuous: `began` once the
/// line between them has turned by more than ``minimumRotation``, `changed` at each move,
/// `ended` when fewer than two are left down. It reports the angle turned (``rotation``, in
/// radians, positive clockwise on screen, since window y grows downwards) and how fast
/// (``velocity``, radians per second).
///
/// ```swift
/// let rotation = RotationGestureRecognizer(label: "turn")
/// rotation.addChainEvent { rotation in Turned(by: rotation.rotation) }
/// photo.addGestureRecognizer(rotation)
/// ```
///
/// The line is the one from the first pointer down to the second (by pointer number); when one
/// of them lifts and another is down, the line between the two lowest-numbered pointers takes
/// over where the rotation stands. The angle accumulates: turning twice round reads 4π. It
/// fails when the pointers lift before turning enough.
///
/// A rotation can neither prevent nor be prevented by a pan, a pinch or another rotation
/// (``canPrevent(_:)``): see ``PinchGestureRecognizer``.
@MainActor
open class RotationGestureRecognizer: GestureRecognizer {
    /// How far, in radians, the line must turn for the rotation to begin: strictly further (a
    /// threshold is crossed only by going past it, as for every recognizer here). 5° by default.
    public final var minimumRotation = Double.pi / 36

    /// The angle turned since the rotation started, in radians; set it (to 0, say) to measure
    /// from here.
    public final var rotation = 0.0 {
        didSet { samples.restart(at: now, with: rotation) }
    }

    /// How fast the angle changes, in radians per second, over the last 100 ms.
    public final var velocity: Double { samples.velocity }

    /// The angle of the line at the last reading.
    private var lastAngle: Double?
    private var samples = ScalarSamples()

    /// A rotation recognizer named `label`.
    public override init(label: String? = nil) {
        super.init(label: label)
    }

    open override func pointerBegan(_ pointer: PointerEvent) {
        lastAngle = angle(leaving: nil)
    }

    open override func pointerMoved(_ pointer: PointerEvent) {
        guard let previous = lastAngle, let angle = angle(leaving: nil) else { return }
        var turned = angle - previous
        // The smaller way round: a step of a move never turns more than half a turn.
        if turned > .pi { turned -= 2 * .pi } else if turned <= -.pi { turned += 2 * .pi }
        lastAngle = angle
        let total = rotation + turned
        rotation = total
        samples.record(total, at: now)
        changeOrBegin(when: abs(total) > minimumRotation)
    }

    open override func pointerEnded(_ pointer: PointerEvent) {
        if endsWhenFewerThan(2) { return }
        lastAngle = angle(leaving: pointer.pointer)
    }

    open override func reset() {
        lastAngle = nil
        rotation = 0
        samples = ScalarSamples()
    }

    /// The angle of the line from the lowest-numbered pointer down (but `leaving`) to the next;
    /// `nil` with fewer than two.
    private func angle(leaving: PointerID?) -> Double? {
        let pair = activePointers.filter { $0 != leaving }.prefix(2).map { location(ofPointer: $0) }
        guard pair.count == 2 else { return nil }
        return atan2(pair[1].y - pair[0].y, pair[1].x - pair[0].x)
    }

    open override func canPrevent(_ other: GestureRecognizer) -> Bool {
        !other.isTransformGesture
    }

    open override func canBePrevented(by other: GestureRecognizer) -> Bool {
        !other.isTransformGesture
    }
}
