import ResponderChain
import ResponderChainTesting
import ResponderUI
import Testing

/// One scenario: the recognizers, the input, and what each recognizer's attempts, the row, the
/// button and the controller must show at the end.
struct GestureScenario: Sendable, CustomTestStringConvertible {
    let name: String
    let specs: [GestureSpec]
    let steps: [GestureStep]
    /// Each recognizer's attempts, `state (reason)`.
    let attempts: [String: [String]]
    /// What the row was told (empty: nothing).
    var row: [String] = []
    /// What the button was told.
    var buy: [String] = []
    /// The chain events the controller got, by sender.
    var fired: [String: [String]] = [:]

    var testDescription: String { name }
}

// Places: on the row (50, 150); on the Buy button (340, 150).
private let doubleOnRow = GestureSpec(label: "double", kind: .tap(taps: 2), on: "row")

@MainActor
@Suite("Gesture conflicts")
struct GestureConflictTests {
    nonisolated static let taps: [GestureScenario] = [
        GestureScenario(
            name:
                "a two-finger tap: the first finger's end waits for the tap (delaysTouchesEnded), and both fingers' sequences are cancelled when it recognizes",
            specs: [GestureSpec(label: "twoFingers", kind: .tap(pointers: 2), on: "row")],
            steps: [
                .down(50, 150, pointer: 0), .down(70, 150, pointer: 1), .up(50, 150, pointer: 0),
                .up(70, 150, pointer: 1),
            ],
            attempts: ["twoFingers": ["recognized (completed)"]],
            row: [
                // The live sequence is taken at the claim; the held end once the recognizers
                // have settled.
                "began 0", "began 1", "cancelled 1 (gestureRecognized(by: twoFingers))",
                "cancelled 0 (gestureRecognized(by: twoFingers))",
            ],
            fired: ["twoFingers": ["twoFingers recognized"]]),
        GestureScenario(
            name:
                "a two-finger tap that does not delay ends: the first finger's end goes to the row at once",
            specs: [
                GestureSpec(
                    label: "twoFingers", kind: .tap(pointers: 2), on: "row", delaysTouchesEnded: false)
            ],
            steps: [
                .down(50, 150, pointer: 0), .down(70, 150, pointer: 1), .up(50, 150, pointer: 0),
                .up(70, 150, pointer: 1),
            ],
            attempts: ["twoFingers": ["recognized (completed)"]],
            row: ["began 0", "began 1", "ended 0", "cancelled 1 (gestureRecognized(by: twoFingers))"],
            fired: ["twoFingers": ["twoFingers recognized"]]),
        GestureScenario(
            name: "a single tap that requires a double tap to fail recognizes once the double tap times out",
            specs: [
                GestureSpec(label: "single", kind: .tap(), on: "row", requiresToFail: ["double"]),
                doubleOnRow,
            ],
            steps: [.down(50, 150), .up(50, 150), .wait(milliseconds: 400)],
            attempts: ["double": ["failed (not recognized)"], "single": ["recognized (completed)"]],
            row: ["began 0", "cancelled 0 (gestureRecognized(by: single))"],
            fired: ["single": ["single recognized"]]),
        GestureScenario(
            name:
                "two taps in time: the double tap recognizes and the single tap that required it to fail fails",
            specs: [
                GestureSpec(label: "single", kind: .tap(), on: "row", requiresToFail: ["double"]),
                doubleOnRow,
            ],
            steps: [.down(50, 150), .up(50, 150), .wait(milliseconds: 100), .down(52, 150), .up(52, 150)],
            attempts: [
                "double": ["recognized (completed)"],
                "single": ["failed (double, required to fail, recognized)"],
            ],
            row: [
                "began 0", "began 0", "cancelled 0 (gestureRecognized(by: double))",
                "cancelled 0 (gestureRecognized(by: double))",
            ],
            fired: ["double": ["double recognized"]]),
        GestureScenario(
            name:
                "without a requirement the double tap holds the arena: one tap is the single tap's once it times out",
            specs: [GestureSpec(label: "single", kind: .tap(), on: "row"), doubleOnRow],
            steps: [.down(50, 150), .up(50, 150), .wait(milliseconds: 349), .wait(milliseconds: 1)],
            attempts: ["double": ["failed (not recognized)"], "single": ["recognized (completed)"]],
            row: ["began 0", "cancelled 0 (gestureRecognized(by: single))"],
            fired: ["single": ["single recognized"]]),
        GestureScenario(
            name: "without a requirement two taps in time defeat the single tap held in the arena",
            specs: [GestureSpec(label: "single", kind: .tap(), on: "row"), doubleOnRow],
            steps: [.down(50, 150), .up(50, 150), .wait(milliseconds: 300), .down(50, 152), .up(50, 152)],
            attempts: ["double": ["recognized (completed)"], "single": ["failed (defeated by double)"]],
            row: [
                "began 0", "began 0", "cancelled 0 (gestureRecognized(by: double))",
                "cancelled 0 (gestureRecognized(by: double))",
            ],
            fired: ["double": ["double recognized"]]),
        GestureScenario(
            name:
                "a second tap too far from the first starts the double tap over with it (UIKit), the first tap is the single tap's, and the single tap begins a new attempt with the second, which is its own once the double tap times out",
            specs: [GestureSpec(label: "single", kind: .tap(), on: "row"), doubleOnRow],
            steps: [.down(50, 150), .up(50, 150), .down(150, 150), .up(150, 150), .wait(milliseconds: 400)],
            attempts: [
                "double": ["failed (not recognized)", "failed (not recognized)"],
                "single": ["recognized (completed)", "recognized (completed)"],
            ],
            row: [
                "began 0", "cancelled 0 (gestureRecognized(by: single))", "began 0",
                "cancelled 0 (gestureRecognized(by: single))",
            ],
            fired: ["single": ["single recognized", "single recognized"]]),
        GestureScenario(
            name:
                "a double tap started over by a far second tap recognizes with the next two taps there",
            specs: [doubleOnRow],
            steps: [
                .down(50, 150), .up(50, 150), .down(150, 150), .up(150, 150), .wait(milliseconds: 100),
                .down(152, 150), .up(152, 150),
            ],
            attempts: ["double": ["failed (not recognized)", "recognized (completed)"]],
            row: [
                "began 0", "ended 0", "began 0", "began 0", "cancelled 0 (gestureRecognized(by: double))",
                "cancelled 0 (gestureRecognized(by: double))",
            ],
            fired: ["double": ["double recognized"]]),
        GestureScenario(
            name:
                "two single taps on one pointer: the sweep at the lift picks the row's, which takes the sequence, so the row is told cancelled, not ended",
            specs: [
                GestureSpec(label: "rowTap", kind: .tap(), on: "row"),
                GestureSpec(label: "listTap", kind: .tap(), on: "list"),
            ],
            steps: [.down(50, 150), .up(50, 150)],
            attempts: ["listTap": ["failed (defeated by rowTap)"], "rowTap": ["recognized (completed)"]],
            row: ["began 0", "cancelled 0 (gestureRecognized(by: rowTap))"],
            fired: ["rowTap": ["rowTap recognized"]]),
        GestureScenario(
            name:
                "two single taps on one pointer, the first declined by its delegate: it leaves the arena before the sweep, and the next one wins",
            specs: [
                GestureSpec(label: "rowTap", kind: .tap(), on: "row", declines: true),
                GestureSpec(label: "listTap", kind: .tap(), on: "list"),
            ],
            steps: [.down(50, 150), .up(50, 150)],
            attempts: ["rowTap": ["failed (declined to begin)"], "listTap": ["recognized (completed)"]],
            row: ["began 0", "cancelled 0 (gestureRecognized(by: listTap))"],
            fired: ["listTap": ["listTap recognized"]]),
        GestureScenario(
            name:
                "a tap recognizer on the button that wins the sweep against a tap on the list takes the sequence: the button is told cancelled and sends nothing",
            specs: [
                GestureSpec(label: "buyTap", kind: .tap(), on: "buy"),
                GestureSpec(label: "listTap", kind: .tap(), on: "list"),
            ],
            steps: [.down(340, 150), .up(340, 150)],
            attempts: ["listTap": ["failed (defeated by buyTap)"], "buyTap": ["recognized (completed)"]],
            buy: ["began 0", "cancelled 0 (gestureRecognized(by: buyTap))"],
            fired: ["buyTap": ["buyTap recognized"]]),
    ]

    nonisolated static let scrolling: [GestureScenario] = [
        GestureScenario(
            name: "a tap on a button in a scrolling list: the pan fails and the button sends its event",
            specs: [GestureSpec(label: "pan", kind: .pan(), on: "list")],
            steps: [.down(340, 150), .up(340, 150)],
            attempts: ["pan": ["failed (not recognized)"]],
            buy: ["began 0", "ended 0"],
            fired: ["buy": ["buy tap"]]),
        GestureScenario(
            name:
                "a drag from the button: the pan wins, the button is told once, naming the pan, and sends nothing",
            specs: [GestureSpec(label: "pan", kind: .pan(), on: "list")],
            steps: [.down(340, 150), .move(340, 145), .move(340, 139), .move(340, 120), .up(340, 110)],
            attempts: ["pan": ["ended (completed)"]],
            buy: ["began 0", "moved 0", "cancelled 0 (gestureRecognized(by: pan))"],
            fired: ["pan": ["pan began", "pan changed", "pan ended"]]),
        GestureScenario(
            name: "a pan that delays touches: a tap reaches the button only once the pan failed, in order",
            specs: [GestureSpec(label: "pan", kind: .pan(), on: "list", delaysTouchesBegan: true)],
            steps: [.down(340, 150), .move(341, 150), .up(341, 150)],
            attempts: ["pan": ["failed (not recognized)"]],
            buy: ["began 0", "moved 0", "ended 0"],
            fired: ["buy": ["buy tap"]]),
        GestureScenario(
            name: "a pan that delays touches and wins: the button never hears of the sequence",
            specs: [GestureSpec(label: "pan", kind: .pan(), on: "list", delaysTouchesBegan: true)],
            steps: [.down(340, 150), .move(340, 130), .up(340, 120)],
            attempts: ["pan": ["ended (completed)"]],
            fired: ["pan": ["pan began", "pan ended"]]),
        GestureScenario(
            name: "a single tap recognizer above a button yields to the button's own tap",
            specs: [GestureSpec(label: "tap", kind: .tap(), on: "list")],
            steps: [.down(340, 150), .up(340, 150)],
            attempts: ["tap": ["failed (declined to begin)"]],
            buy: ["began 0", "ended 0"],
            fired: ["buy": ["buy tap"]]),
        GestureScenario(
            name:
                "a double tap above a button: the button's first end waits for the double tap (delaysTouchesEnded), which recognizes, so both taps are cancelled for the button and it sends nothing",
            specs: [GestureSpec(label: "double", kind: .tap(taps: 2), on: "list")],
            steps: [.down(340, 150), .up(340, 150), .down(341, 150), .up(341, 150)],
            attempts: ["double": ["recognized (completed)"]],
            buy: [
                "began 0", "began 0", "cancelled 0 (gestureRecognized(by: double))",
                "cancelled 0 (gestureRecognized(by: double))",
            ],
            fired: ["double": ["double recognized"]]),
        GestureScenario(
            name:
                "a double tap above a button that times out: the button's held end is sent then, and it sends its tap",
            specs: [GestureSpec(label: "double", kind: .tap(taps: 2), on: "list")],
            steps: [.down(340, 150), .up(340, 150), .wait(milliseconds: 400)],
            attempts: ["double": ["failed (not recognized)"]],
            buy: ["began 0", "ended 0"],
            fired: ["buy": ["buy tap"]]),
        GestureScenario(
            name: "a pan that does not cancel touches wins while the row gets every phase",
            specs: [GestureSpec(label: "pan", kind: .pan(), on: "row", cancelsTouchesInView: false)],
            steps: [.down(50, 150), .move(50, 170), .up(50, 170)],
            attempts: ["pan": ["ended (completed)"]],
            row: ["began 0", "moved 0", "ended 0"],
            fired: ["pan": ["pan began", "pan ended"]]),
        GestureScenario(
            name: "a pan whose delegate declines fails, and the row keeps its sequence",
            specs: [GestureSpec(label: "pan", kind: .pan(), on: "row", declines: true)],
            steps: [.down(50, 150), .move(50, 170), .up(50, 170)],
            attempts: ["pan": ["failed (declined to begin)"]],
            row: ["began 0", "moved 0", "ended 0"]),
    ]

    nonisolated static let pressesAndSwipes: [GestureScenario] = [
        GestureScenario(
            name:
                "a long press of zero duration wins at the down: the tap beside it is defeated and the row never hears of the sequence",
            specs: [
                GestureSpec(label: "tap", kind: .tap(), on: "row"),
                GestureSpec(label: "press", kind: .longPress(milliseconds: 0), on: "row"),
            ],
            steps: [.down(50, 150), .up(50, 150)],
            attempts: ["tap": ["failed (defeated by press)"], "press": ["ended (completed)"]],
            fired: ["press": ["press began", "press ended"]]),
        GestureScenario(
            name: "a long press recognized defeats a tap on the same view and takes the row's sequence",
            specs: [
                GestureSpec(label: "tap", kind: .tap(), on: "row"),
                GestureSpec(label: "press", kind: .longPress(), on: "row"),
            ],
            steps: [.down(50, 150), .wait(milliseconds: 499), .wait(milliseconds: 1), .up(50, 150)],
            attempts: ["tap": ["failed (defeated by press)"], "press": ["ended (completed)"]],
            row: ["began 0", "cancelled 0 (gestureRecognized(by: press))"],
            fired: ["press": ["press began", "press ended"]]),
        GestureScenario(
            name: "a tap released before the long press's duration recognizes; the long press fails",
            specs: [
                GestureSpec(label: "tap", kind: .tap(), on: "row"),
                GestureSpec(label: "press", kind: .longPress(), on: "row"),
            ],
            steps: [.down(50, 150), .wait(milliseconds: 100), .up(50, 150)],
            attempts: ["press": ["failed (not recognized)"], "tap": ["recognized (completed)"]],
            row: ["began 0", "cancelled 0 (gestureRecognized(by: tap))"],
            fired: ["tap": ["tap recognized"]]),
        GestureScenario(
            name: "a press that moves too far before its duration fails, and the pan wins",
            specs: [
                GestureSpec(label: "press", kind: .longPress(), on: "row"),
                GestureSpec(label: "pan", kind: .pan(), on: "row"),
            ],
            steps: [
                .down(50, 150), .wait(milliseconds: 100), .move(50, 170), .up(50, 170),
                .wait(milliseconds: 500),
            ],
            attempts: ["press": ["failed (not recognized)"], "pan": ["ended (completed)"]],
            row: ["began 0", "cancelled 0 (gestureRecognized(by: pan))"],
            fired: ["pan": ["pan began", "pan ended"]]),
        GestureScenario(
            name: "a long press and a pan allowed to recognize together both win and both end",
            specs: [
                GestureSpec(label: "press", kind: .longPress(), on: "row", simultaneousWith: ["pan"]),
                GestureSpec(label: "pan", kind: .pan(), on: "row"),
            ],
            steps: [.down(50, 150), .wait(milliseconds: 600), .move(50, 170), .move(50, 180), .up(50, 180)],
            attempts: ["press": ["ended (completed)"], "pan": ["ended (completed)"]],
            row: ["began 0", "cancelled 0 (gestureRecognized(by: press))"],
            fired: [
                "press": ["press began", "press changed", "press changed", "press ended"],
                "pan": ["pan began", "pan changed", "pan ended"],
            ]),
        GestureScenario(
            name: "the same two, not allowed together: the long press defeats the pan",
            specs: [
                GestureSpec(label: "press", kind: .longPress(), on: "row"),
                GestureSpec(label: "pan", kind: .pan(), on: "row"),
            ],
            steps: [.down(50, 150), .wait(milliseconds: 600), .move(50, 170), .move(50, 180), .up(50, 180)],
            attempts: ["press": ["ended (completed)"], "pan": ["failed (defeated by press)"]],
            row: ["began 0", "cancelled 0 (gestureRecognized(by: press))"],
            fired: ["press": ["press began", "press changed", "press changed", "press ended"]]),
        GestureScenario(
            name: "a swipe right recognizes once the distance is covered, mid-sequence",
            specs: [GestureSpec(label: "swipe", kind: .swipe(.right), on: "row")],
            steps: [.down(50, 150), .move(80, 150), .move(110, 150), .up(120, 150)],
            attempts: ["swipe": ["recognized (completed)"]],
            row: ["began 0", "moved 0", "cancelled 0 (gestureRecognized(by: swipe))"],
            fired: ["swipe": ["swipe recognized"]]),
        GestureScenario(
            name: "a swipe the wrong way fails, and the row keeps its sequence",
            specs: [GestureSpec(label: "swipe", kind: .swipe(.right), on: "row")],
            steps: [.down(110, 150), .move(80, 150), .up(40, 150)],
            attempts: ["swipe": ["failed (not recognized)"]],
            row: ["began 0", "moved 0", "ended 0"]),
        GestureScenario(
            name: "a swipe that takes too long fails when its time is up",
            specs: [GestureSpec(label: "swipe", kind: .swipe([.left, .right]), on: "row")],
            steps: [.down(50, 150), .wait(milliseconds: 501), .move(120, 150), .up(120, 150)],
            attempts: ["swipe": ["failed (not recognized)"]],
            row: ["began 0", "moved 0", "ended 0"]),
    ]

    nonisolated static let leaving: [GestureScenario] = [
        GestureScenario(
            name:
                "a pan under way when the window is detached is cancelled; the row was told once, by the pan",
            specs: [GestureSpec(label: "pan", kind: .pan(), on: "row")],
            steps: [.down(50, 150), .move(50, 170), .detachWindow, .move(50, 180), .up(50, 180)],
            attempts: ["pan": ["cancelled (input cancelled (windowDetached))"]],
            row: ["began 0", "cancelled 0 (gestureRecognized(by: pan))"],
            fired: ["pan": ["pan began", "pan cancelled"]]),
        GestureScenario(
            name:
                "a long press still possible when the window is detached fails; the row is told once, detached",
            specs: [GestureSpec(label: "press", kind: .longPress(), on: "row")],
            steps: [.down(50, 150), .wait(milliseconds: 100), .detachWindow, .wait(milliseconds: 900)],
            attempts: ["press": ["failed (input cancelled (windowDetached))"]],
            row: ["began 0", "cancelled 0 (windowDetached)"]),
        GestureScenario(
            name:
                "a double tap between its taps when the window is detached fails, and the row's held end becomes one cancelled",
            specs: [doubleOnRow],
            steps: [.down(50, 150), .up(50, 150), .wait(milliseconds: 100), .detachWindow],
            attempts: ["double": ["failed (input cancelled (windowDetached))"]],
            row: ["began 0", "cancelled 0 (windowDetached)"]),
        GestureScenario(
            name:
                "a pan whose view is removed mid-gesture is cancelled, the row told once; its cancelled event, sent from the removed row, reaches no one",
            specs: [GestureSpec(label: "pan", kind: .pan(), on: "row")],
            steps: [.down(50, 150), .move(50, 170), .remove("row"), .up(50, 170)],
            attempts: ["pan": ["cancelled (input cancelled (viewLeftWindow))"]],
            row: ["began 0", "cancelled 0 (gestureRecognized(by: pan))"],
            fired: ["pan": ["pan began"]]),
        GestureScenario(
            name: "a sequence a pan on the list claimed stays the pan's when the row it began on is removed",
            specs: [GestureSpec(label: "pan", kind: .pan(), on: "list")],
            steps: [.down(50, 150), .move(50, 170), .remove("row"), .move(50, 190), .up(50, 190)],
            attempts: ["pan": ["ended (completed)"]],
            row: ["began 0", "cancelled 0 (gestureRecognized(by: pan))"],
            fired: ["pan": ["pan began", "pan changed", "pan ended"]]),
        GestureScenario(
            name: "an input cancellation cancels the pan and tells the row once, from the system",
            specs: [GestureSpec(label: "pan", kind: .pan(), on: "row", cancelsTouchesInView: false)],
            steps: [.down(50, 150), .move(50, 170), .cancel()],
            attempts: ["pan": ["cancelled (input cancelled (system))"]],
            row: ["began 0", "moved 0", "cancelled 0 (system)"],
            fired: ["pan": ["pan began", "pan cancelled"]]),
    ]

    @Test("tap against double tap", arguments: taps)
    func tapAgainstDoubleTap(_ scenario: GestureScenario) async throws {
        try await play(scenario)
    }

    @Test("pan in a scrolling list against the button's tap", arguments: scrolling)
    func panAgainstButton(_ scenario: GestureScenario) async throws {
        try await play(scenario)
    }

    @Test("long presses, simultaneous recognizers and swipes", arguments: pressesAndSwipes)
    func pressesAndSwipes(_ scenario: GestureScenario) async throws {
        try await play(scenario)
    }

    @Test(
        "detached windows, removed views and cancelled input end every sequence and attempt once",
        arguments: leaving)
    func leavingMidGesture(_ scenario: GestureScenario) async throws {
        try await play(scenario)
    }

    /// Plays `scenario` and checks every recognizer's attempts, what the row and the button were
    /// told, the chain events, and that everything is back at rest.
    private func play(_ scenario: GestureScenario) async throws {
        let scene = try GestureScene(scenario.specs)
        await scene.play(scenario.steps)
        await scene.clock.advance(by: .seconds(5))
        await scene.window.gestureEventsSent()
        #expect(scene.journal.summary == scenario.attempts)
        #expect((scene.told["row"] ?? []) == scenario.row)
        #expect(scene.buyTold == scenario.buy)
        #expect(scene.firedBySender == scenario.fired)
        #expect(scene.isQuiet)
    }
}
