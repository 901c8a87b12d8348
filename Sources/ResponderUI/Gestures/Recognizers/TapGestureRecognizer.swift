/// Recognizes taps: pointers that go down and lift without moving far, a given number of times,
/// each tap with a given number of pointers. Discrete: it sends its chain events once,
/// `recognized`.
///
/// ```swift
/// let doubleTap = TapGestureRecognizer(label: "zoom", numberOfTapsRequired: 2)
/// doubleTap.addChainEvent { tap in ZoomToggled(at: tap.location(in: nil)) }
/// photo.addGestureRecognizer(doubleTap)
/// ```
///
/// It fails when a pointer moves more than ``allowableMovement`` from where it went down, when
/// a tap has more or fewer pointers than ``numberOfPointersRequired``, when the next tap does
/// not begin within ``maximumTapInterval`` or starts more than ``maximumDistanceBetweenTaps``
/// from the first.
///
/// A single tap recognizes only once nothing can defeat it (Flutter's rule,
/// ``GestureRecognizer/recognizeWhenUnopposed()``): a double tap competing for the same
/// pointers wins if its second tap comes in time, and the single tap then fails. A tap of
/// several taps holds its arenas between taps, and recognizes at once on its last tap.
@MainActor
open class TapGestureRecognizer: GestureRecognizer {
    /// How many taps make the gesture (at least 1).
    public final var numberOfTapsRequired: Int
    /// How many pointers each tap has (at least 1).
    public final var numberOfPointersRequired: Int
    /// How far, in points, a pointer may move from where it went down: the tap fails once one is
    /// strictly further (a threshold is crossed only by going past it, as for every recognizer
    /// here).
    public final var allowableMovement = 10.0
    /// How long, at most, between a tap's lift and the next tap's first pointer.
    public final var maximumTapInterval: Duration = .milliseconds(350)
    /// How far, in points, a later tap may begin from the first.
    public final var maximumDistanceBetweenTaps = 40.0

    /// The taps done in this attempt.
    public private(set) final var tapsCompleted = 0
    private var pointersDown: [PointerID: Point] = [:]
    private var mostPointersInTap = 0
    private var firstLocation: Point?
    private var interval = 0

    /// A tap recognizer named `label` for `numberOfTapsRequired` taps of
    /// `numberOfPointersRequired` pointers.
    public init(label: String? = nil, numberOfTapsRequired: Int = 1, numberOfPointersRequired: Int = 1) {
        self.numberOfTapsRequired = max(1, numberOfTapsRequired)
        self.numberOfPointersRequired = max(1, numberOfPointersRequired)
        super.init(label: label)
    }

    open override func pointerBegan(_ pointer: PointerEvent) {
        if let firstLocation {
            if pointersDown.isEmpty, firstLocation.distance(to: pointer.location) > maximumDistanceBetweenTaps
            {
                // UIKit's rule: this down is the first tap of a new attempt.
                startOver()
                return
            }
        } else {
            firstLocation = pointer.location
        }
        interval += 1  // the interval timer of the previous tap no longer counts
        pointersDown[pointer.pointer] = pointer.location
        mostPointersInTap = max(mostPointersInTap, pointersDown.count)
        if pointersDown.count > numberOfPointersRequired { state = .failed }
    }

    open override func pointerMoved(_ pointer: PointerEvent) {
        guard let start = pointersDown[pointer.pointer] else { return }
        if start.distance(to: pointer.location) > allowableMovement { state = .failed }
    }

    open override func pointerEnded(_ pointer: PointerEvent) {
        pointerMoved(pointer)
        guard state == .possible, pointersDown.removeValue(forKey: pointer.pointer) != nil,
            pointersDown.isEmpty
        else { return }
        guard mostPointersInTap == numberOfPointersRequired else {
            state = .failed
            return
        }
        tapsCompleted += 1
        mostPointersInTap = 0
        if tapsCompleted == numberOfTapsRequired {
            if numberOfTapsRequired == 1 { recognizeWhenUnopposed() } else { state = .recognized }
            return
        }
        holdArenas()
        let tap = interval
        schedule(after: maximumTapInterval) { [weak self] in
            guard let self, self.interval == tap, self.state == .possible else { return }
            self.state = .failed  // the next tap did not come in time
        }
    }

    open override func reset() {
        tapsCompleted = 0
        pointersDown = [:]
        mostPointersInTap = 0
        firstLocation = nil
        interval = 0
    }
}
