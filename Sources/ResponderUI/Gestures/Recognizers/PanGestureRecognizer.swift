/// Recognizes a drag: pointers that move further than ``minimumDistance`` together. Continuous:
/// `began` once they have, `changed` at each move, `ended` when too few pointers are left down.
/// It reports how far they went (``translation``) and how fast they go (``velocity``).
///
/// ```swift
/// let pan = PanGestureRecognizer(label: "scroll")
/// pan.addChainEvent { pan in Scrolled(by: pan.translation, velocity: pan.velocity) }
/// list.addGestureRecognizer(pan)
/// ```
///
/// The pointers' centroid is what moves: a pointer that goes down or lifts mid-drag does not
/// make the translation jump. It fails when the pointers lift before moving far enough, or
/// when more than ``maximumNumberOfPointers`` go down before it begins.
@MainActor
open class PanGestureRecognizer: GestureRecognizer {
    /// How many pointers, at least, must be down for the drag (at least 1).
    public final var minimumNumberOfPointers: Int
    /// How many pointers, at most, may be down for the drag.
    public final var maximumNumberOfPointers: Int
    /// How far, in points, the centroid may move before the drag begins: it begins once the
    /// centroid is strictly further than this from where it started (the same rule as a tap's
    /// and a long press's ``TapGestureRecognizer/allowableMovement``: a threshold is crossed
    /// only by going past it).
    public final var minimumDistance = 10.0

    /// How far the pointers' centroid has moved since the drag started, in points (window
    /// axes; views here are only ever translated, so it is the same in every view).
    public final var translation: Point { Point(x: current.x - origin.x, y: current.y - origin.y) }

    /// How fast the centroid moves, in points per second, over the last 100 ms of samples.
    public final var velocity: Point {
        guard let last = samples.last,
            let first = samples.first(where: { last.time - $0.time <= .milliseconds(100) }),
            last.time > first.time
        else { return .zero }
        let seconds =
            Double((last.time - first.time).components.attoseconds) / 1e18
            + Double((last.time - first.time).components.seconds)
        return Point(
            x: (last.location.x - first.location.x) / seconds,
            y: (last.location.y - first.location.y) / seconds)
    }

    private var origin = Point.zero
    private var current = Point.zero
    private var samples: [(time: EventSystem.Instant, location: Point)] = []

    /// A pan recognizer named `label`.
    public init(label: String? = nil, minimumNumberOfPointers: Int = 1, maximumNumberOfPointers: Int = .max) {
        self.minimumNumberOfPointers = max(1, minimumNumberOfPointers)
        self.maximumNumberOfPointers = max(self.minimumNumberOfPointers, maximumNumberOfPointers)
        super.init(label: label)
    }

    /// Makes ``translation`` read `translation` from now on (`.zero` to measure from here).
    public final func setTranslation(_ translation: Point) {
        origin = Point(x: current.x - translation.x, y: current.y - translation.y)
    }

    open override func pointerBegan(_ pointer: PointerEvent) {
        if numberOfPointers == 1 {
            origin = pointer.location
            current = pointer.location
            samples = [(now, current)]
        } else {
            rebase(to: location(in: nil))
        }
        if state == .possible, numberOfPointers > maximumNumberOfPointers { state = .failed }
    }

    open override func pointerMoved(_ pointer: PointerEvent) {
        current = location(in: nil)
        record()
        changeOrBegin(
            when: (minimumNumberOfPointers...maximumNumberOfPointers).contains(numberOfPointers)
                && Point.zero.distance(to: translation) > minimumDistance)
    }

    open override func pointerEnded(_ pointer: PointerEvent) {
        current = location(in: nil)
        record()
        if endsWhenFewerThan(minimumNumberOfPointers) { return }
        // The centroid of the pointers left down takes over, where the translation stands.
        var left = Point.zero
        var count = 0.0
        for pointerID in activePointers where pointerID != pointer.pointer {
            let location = self.location(ofPointer: pointerID)
            left = Point(x: left.x + location.x, y: left.y + location.y)
            count += 1
        }
        rebase(to: Point(x: left.x / count, y: left.y / count))
    }

    open override func reset() {
        origin = .zero
        current = .zero
        samples = []
    }

    /// Moves the origin so that the centroid at `centroid` keeps the translation.
    private func rebase(to centroid: Point) {
        let kept = translation
        current = centroid
        origin = Point(x: centroid.x - kept.x, y: centroid.y - kept.y)
        samples = [(now, current)]
    }

    /// Keeps the samples of the last 100 ms (at most 16: a clock that does not move adds
    /// nothing to the velocity).
    private func record() {
        let time = now
        samples.append((time, current))
        var stale = 0
        while stale < samples.count - 1,
            time - samples[stale].time > .milliseconds(100) || samples.count - stale > 16
        {
            stale += 1
        }
        if stale > 0 { samples.removeFirst(stale) }
    }
}
