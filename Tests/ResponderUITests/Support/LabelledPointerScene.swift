// The scene the pointer scenario tables run in: recording views laid out from a list of places,
// found by label, with the changes a scenario makes to the tree and the withdrawal it expects of
// an event in flight, stated as values so that a row of a table can name them.
import ResponderChainTesting
import ResponderUI
import Testing

/// An application (its delegate recording what reaches it, its dead letters recorded) with a
/// window holding recording views laid out from a list of ``Place``s, and a second window,
/// `another`, where a scenario may move views.
///
/// Every recording view handles or passes pointer events as its ``UIFixtures/RecordingView``
/// settings say (it passes by default) and logs what it is told.
@MainActor
final class LabelledPointerScene {
    /// Where a recording view goes: its frame in its parent's coordinates, and its parent's label
    /// (`nil` for the root controller's view, `another` for the second window).
    struct Place {
        let label: String
        let frame: Rect
        let parent: String?
    }

    /// The application system's dead letters.
    let letters: DeadLetterRecorder
    /// The application (with its delegate), window and root controller.
    let scene: UIFixtures.Scene
    /// A second window of the same application.
    let another = Window(frame: Rect(x: 0, y: 0, width: 400, height: 400), label: "another")
    /// Every recording view, in the order of the places.
    let views: [UIFixtures.RecordingView]

    /// The scene's window.
    var window: Window { scene.window }

    /// The scene, with a view at each of `places` (a parent before its subviews); `runsCapturePhase`
    /// is the application's system's (none by default).
    init(_ places: [Place], runsCapturePhase: Bool = false) {
        let letters = DeadLetterRecorder()
        self.letters = letters
        scene = UIFixtures.Scene(deadLetters: letters.sink, runsCapturePhase: runsCapturePhase)
        scene.app.addWindow(another)
        var views: [UIFixtures.RecordingView] = []
        for place in places {
            let view = UIFixtures.RecordingView(frame: place.frame, label: place.label)
            switch place.parent {
            case nil: scene.controller.view.addSubview(view)
            case "another": another.addSubview(view)
            case let parent?:
                guard let superview = views.first(where: { $0.label == parent }) else {
                    preconditionFailure("\(place.label)'s parent \(parent) is not placed before it")
                }
                superview.addSubview(view)
            }
            views.append(view)
        }
        self.views = views
    }

    /// The recording view labelled `label`.
    subscript(label: String) -> UIFixtures.RecordingView {
        guard let view = views.first(where: { $0.label == label }) else {
            preconditionFailure("no view labelled \(label)")
        }
        return view
    }

    /// The view labelled `label`: a recording view, or `window` or `another` for the windows.
    func view(_ label: String) -> View {
        switch label {
        case "window": window
        case "another": another
        default: self[label]
        }
    }

    /// The middle of `view`, in window coordinates.
    func middle(of view: View) -> Point {
        view.convert(Point(x: view.bounds.width / 2, y: view.bounds.height / 2), to: nil)
    }

    /// Begins `pointer`'s sequence at the middle of `view` and checks it is bound there.
    func begin(_ pointer: PointerID = .primary, on view: View) async throws {
        let delivery = try #require(await window.dispatch(.began, at: middle(of: view), pointer: pointer))
        try #require(delivery.target === view)
    }

    /// Each view's log, by label; views that logged nothing are left out.
    func logs() -> [String: [String]] {
        var logs: [String: [String]] = [:]
        for view in views where !view.log.isEmpty { logs[view.label] = view.log }
        return logs
    }

    /// Each view's phases, by label, with the pointer left out (`began moved cancelled`); views
    /// that saw nothing are left out.
    func phases() -> [String: String] {
        logs().mapValues { log in log.map { $0.split(separator: " ")[0] }.joined(separator: " ") }
    }

    /// The reasons each view was told `cancelled` for, by label; views never told are left out.
    func reasons() -> [String: [PointerCancellation]] {
        var reasons: [String: [PointerCancellation]] = [:]
        for view in views where !view.cancellations.isEmpty { reasons[view.label] = view.cancellations }
        return reasons
    }

    /// Makes `change` to the tree.
    func apply(_ change: TreeChange) {
        switch change {
        case .remove(let label): view(label).removeFromSuperview()
        case .move(let label, let into): view(into).addSubview(view(label))
        case .detachWindow: scene.app.removeWindow(window)
        }
    }

    /// Checks that `delivery` ended `.cancelled`, withdrawn as `expected` says.
    func expectWithdrawn(
        _ delivery: PointerDelivery, _ expected: Withdrawal, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let stop = try #require(
            delivery.outcome.cancelledDetails, "\(delivery.outcome)", sourceLocation: sourceLocation)
        #expect(stop.reason == .withdrawn, sourceLocation: sourceLocation)
        #expect(stop.responder == ResponderID(view(expected.at)), sourceLocation: sourceLocation)
        if let hop = expected.hop { #expect(stop.hop == hop, sourceLocation: sourceLocation) }
        if let whileHandling = expected.whileHandling {
            #expect(stop.whileHandling == whileHandling, sourceLocation: sourceLocation)
        }
        if let handlers = expected.handlers {
            #expect(
                delivery.outcome.handlers == handlers.map { ResponderID(view($0)) },
                sourceLocation: sourceLocation)
        }
    }
}

/// A change a scenario makes to a ``LabelledPointerScene``'s tree, from the test or from inside a
/// view's pointer call.
enum TreeChange: Sendable, CustomStringConvertible {
    /// Removes the view labelled so from its superview.
    case remove(String)
    /// Moves the view labelled so into the view (or window) labelled `into`.
    case move(String, into: String)
    /// Removes the scene's window from its application.
    case detachWindow

    var description: String {
        switch self {
        case .remove(let label): "remove \(label)"
        case .move(let label, let into): "move \(label) into \(into)"
        case .detachWindow: "detach the window"
        }
    }
}

/// Where an event in flight was withdrawn: its outcome is `.cancelled` with reason `.withdrawn`,
/// stopped at the responder labelled `at`; `hop`, `whileHandling` and the responders that
/// `handlers` names (in order) are checked when given.
struct Withdrawal: Sendable {
    let at: String
    var hop: Int? = nil
    var whileHandling: Bool? = nil
    var handlers: [String]? = nil
}
