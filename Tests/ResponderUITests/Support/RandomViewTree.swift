import ResponderChainTesting
import ResponderUI

/// The tree the pointer-cancellation storms change at random: a 3 × 3 grid of cells (three
/// column groups of three cells) in a scene's window, a second window of the same application
/// where cells are sometimes moved, the seeded generator every choice comes from, and the script
/// of what happened.
///
/// It builds the views and makes the changes; each storm decides how the views handle pointer
/// events and when to call ``interfere()``.
///
/// Window coordinates: group `g<column>` at x = column × 130 (120 wide, 400 high), cell
/// `c<column><row>` at y = row × 130 within it (120 × 120).
@MainActor
final class RandomViewTree {
    /// The application and the window the input goes to.
    let scene: UIFixtures.Scene
    /// A second window of the same application, where cells are sometimes moved.
    let elsewhere = Window(frame: Rect(x: 0, y: 0, width: 400, height: 400), label: "elsewhere")
    /// The three column groups, left to right.
    private(set) var groups: [UIFixtures.RecordingView] = []
    /// The nine cells, column by column.
    private(set) var cells: [UIFixtures.RecordingView] = []
    /// The seeded generator every choice comes from.
    var random: SplitMix64
    /// What happened, in order, for failure messages.
    var script: [String] = []

    /// Every view of the grid: the groups, then the cells.
    var views: [UIFixtures.RecordingView] { groups + cells }

    /// The grid, attached, its views with their default dispositions and no hooks; nothing is
    /// drawn from `seed`'s generator yet. `clock` is the application's system's.
    init(seed: UInt64, clock: any Clock<Duration> = ContinuousClock()) {
        scene = UIFixtures.Scene(clock: clock)
        random = SplitMix64(seed: seed)
        scene.app.addWindow(elsewhere)
        for column in 0..<3 {
            let group = UIFixtures.RecordingView(
                frame: Rect(x: Double(column) * 130, y: 0, width: 120, height: 400), label: "g\(column)")
            scene.controller.view.addSubview(group)
            groups.append(group)
            for row in 0..<3 {
                let cell = UIFixtures.RecordingView(
                    frame: Rect(x: 0, y: Double(row) * 130, width: 120, height: 120),
                    label: "c\(column)\(row)")
                group.addSubview(cell)
                cells.append(cell)
            }
        }
    }

    /// Changes the tree once, at random: removes a cell or a group, detaches the window, or moves
    /// a cell to another group or to ``elsewhere``.
    func interfere() {
        switch random.int(in: 0...4) {
        case 0:
            let cell = random.pick(cells)
            script.append("remove \(cell.label)")
            cell.removeFromSuperview()
        case 1:
            let group = random.pick(groups)
            script.append("remove \(group.label)")
            group.removeFromSuperview()
        case 2:
            script.append("detach")
            scene.app.removeWindow(scene.window)
        case 3:
            let cell = random.pick(cells)
            let group = random.pick(groups)
            script.append("move \(cell.label) to \(group.label)")
            group.addSubview(cell)
        default:
            let cell = random.pick(cells)
            script.append("move \(cell.label) elsewhere")
            elsewhere.addSubview(cell)
        }
    }

    /// The middle of one of the grid's nine places, at random (whatever is there now).
    func randomPlace() -> Point {
        Point(x: Double(random.int(in: 0...2)) * 130 + 60, y: Double(random.int(in: 0...2)) * 130 + 60)
    }

    /// Attaches the window again, if it was detached, and detaches it: every sequence still in
    /// progress is cancelled.
    func finalDetach() {
        script.append("final detach")
        scene.app.addWindow(scene.window)
        scene.app.removeWindow(scene.window)
    }

    /// The window's sequences still in progress, as a problem; empty when there are none.
    func stillActive() -> [String] {
        let active = scene.window.activePointers
        return active.isEmpty ? [] : ["still active: \(active)"]
    }
}
