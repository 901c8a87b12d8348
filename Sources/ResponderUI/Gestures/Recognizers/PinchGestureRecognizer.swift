/// Recognizes a pinch: two pointers (or more) moving closer together or further apart.
/// Continuous: `began` once their span has changed by more than ``minimumSpanChange``,
/// `changed` at each move, `ended` when fewer than two are left down. It reports how much the
/// span grew (``scale``, 1 at the start) and how fast (``velocity``, scale per second).
///
/// ```swift
/// let pinch = PinchGestureRecognizer(label: "zoom")
/// pinch.addChainEvent { pinch in Zoomed(by: pinch.scale, velocity: pinch.velocity) }
/// photo.addGestureRecognizer(pinch)
/// ```
///
/// The span is twice the pointers' mean distance from their centroid (for two pointers, the
/// distance between them; Flutter's definition). A pointer that goes down or lifts mid-pinch
/// does not make the scale jump. It fails when fewer than two pointers were ever down together
/// before the first lifts, or when they lift before the span changed enough.
///
/// A pinch can neither prevent nor be prevented by a pan, a rotation or another pinch
/// (``canPrevent(_:)``): zooming, turning and moving a photo at once is the common use, as in
/// UIKit's Photos and Flutter's scale recognizer.
@MainActor
open class PinchGestureRecognizer: GestureRecognizer {
    /// How far, in points, the span must change for the pinch to begin: strictly further (a
    /// threshold is crossed only by going past it, as for every recognizer here).
    public final var minimumSpanChange = 10.0

    /// The span now ÷ the span when the pinch started; set it (to 1, say) to measure from here.
    public final var scale: Double {
        get { startSpan > 0 ? scaleAtStart * span / startSpan : scaleAtStart }
        set {
            scaleAtStart = newValue
            startSpan = span
            samples.restart(at: now, with: newValue)
        }
    }

    /// How fast the scale changes, per second, over the last 100 ms.
    public final var velocity: Double { samples.velocity }

    private var span = 0.0
    /// The span the scale is measured from, and the scale it stood at then.
    private var startSpan = 0.0
    private var scaleAtStart = 1.0
    /// The span when two pointers first were down: the threshold is measured from it.
    private var firstSpan = 0.0
    private var samples = ScalarSamples()

    /// A pinch recognizer named `label`.
    public override init(label: String? = nil) {
        super.init(label: label)
    }

    open override func pointerBegan(_ pointer: PointerEvent) {
        rebase(leaving: nil)
        if numberOfPointers == 2, state == .possible { firstSpan = span }
    }

    open override func pointerMoved(_ pointer: PointerEvent) {
        span = Self.span(of: activePointers.map { location(ofPointer: $0) })
        samples.record(scale, at: now)
        changeOrBegin(when: numberOfPointers >= 2 && abs(span - firstSpan) > minimumSpanChange)
    }

    open override func pointerEnded(_ pointer: PointerEvent) {
        if endsWhenFewerThan(2) { return }
        rebase(leaving: pointer.pointer)
    }

    open override func reset() {
        span = 0
        startSpan = 0
        scaleAtStart = 1
        firstSpan = 0
        samples = ScalarSamples()
    }

    /// Measures the span of the pointers down (but `leaving`) and goes on from it where the
    /// scale stands.
    private func rebase(leaving: PointerID?) {
        let kept = scale
        span = Self.span(of: activePointers.filter { $0 != leaving }.map { location(ofPointer: $0) })
        scaleAtStart = kept
        startSpan = span
        samples.restart(at: now, with: kept)
    }

    /// Twice the mean distance of `points` from their centroid; 0 for fewer than two.
    static func span(of points: [Point]) -> Double {
        guard points.count >= 2 else { return 0 }
        let count = Double(points.count)
        let centroid = Point(
            x: points.reduce(0) { $0 + $1.x } / count, y: points.reduce(0) { $0 + $1.y } / count)
        return 2 * points.reduce(0) { $0 + centroid.distance(to: $1) } / count
    }

    open override func canPrevent(_ other: GestureRecognizer) -> Bool {
        !other.isTransformGesture
    }

    open override func canBePrevented(by other: GestureRecognizer) -> Bool {
        !other.isTransformGesture
    }
}

extension GestureRecognizer {
    /// Whether this is a pan, a pinch or a rotation: the gestures that recognize together by
    /// default (see ``PinchGestureRecognizer``).
    var isTransformGesture: Bool {
        self is PanGestureRecognizer || self is PinchGestureRecognizer || self is RotationGestureRecognizer
    }

    /// For a continuous gesture, at a move: `changed` once it has begun, `began` when it is
    /// possible and `crossed` (its threshold is past).
    func changeOrBegin(when crossed: @autoclosure () -> Bool) {
        switch state {
        case .began, .changed: state = .changed
        case .possible where crossed(): state = .began
        default: break
        }
    }

    /// For a continuous gesture of at least `minimum` pointers, at a pointer's lift (which
    /// still counts): when fewer than `minimum` are left down, ends it — `ended` if it began,
    /// `failed` if not — and returns `true`.
    func endsWhenFewerThan(_ minimum: Int) -> Bool {
        guard numberOfPointers - 1 < minimum else { return false }
        switch state {
        case .possible: state = .failed
        case .began, .changed: state = .ended
        default: break
        }
        return true
    }
}
