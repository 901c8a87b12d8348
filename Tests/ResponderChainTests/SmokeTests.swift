import ResponderChain
import Testing

struct ItemAdded: Event { let sku: String }
enum OrderID: InfoKey { typealias Value = Int }

actor Node: Responder {
    let name: String
    var parent: (any Responder)?
    let root: Bool
    var seen: [String] = []
    init(_ name: String, parent: (any Responder)? = nil, root: Bool = false) {
        self.name = name; self.parent = parent; self.root = root
    }
    var next: (any Responder)? { parent }
    nonisolated var isRoot: Bool { root }
    func link(_ p: (any Responder)?) { parent = p }
    static let strategies = Strategies<Node> {
        $0.on(ItemAdded.self) { node, event, context in
            node.assertIsolated()
            node.seen.append(event.sku)
            context.info[OrderID.self] = (context.info[OrderID.self] ?? 0) + 1
            return node.name == "top" ? .handled : .handledAndContinue
        }
    }
}

@MainActor final class View: MainActorResponder {
    var parent: (any Responder)?
    var taps = 0
    init(parent: (any Responder)?) { self.parent = parent }
    var next: (any Responder)? { parent }
    nonisolated static let strategies = Strategies<View> {
        $0.on(ItemAdded.self) { view, event, context in
            MainActor.assertIsolated()
            view.taps += 1
            return .pass
        }
    }
}

@Suite struct Smoke {
    @Test func chainOfActorsAndViews() async throws {
        let top = Node("top", root: true)
        let mid = Node("mid", parent: top)
        let v2 = await View(parent: mid)
        let v1 = await View(parent: v2)
        let outcome = await v1.send(ItemAdded(sku: "A"))
        guard case .handled(let handled) = outcome else { Issue.record("\(outcome)"); return }
        #expect(handled.hops == 4)
        #expect(handled.handlers == [ResponderID(mid), ResponderID(top)])
        #expect(handled.info[OrderID.self] == 2)
        #expect(await v1.taps == 1)
    }
    @Test func cycleAndInterrupt() async {
        let a = Node("a"), b = Node("b", parent: nil)
        await a.link(b); await b.link(a)
        let outcome = await a.send(ItemAdded(sku: "x"))
        #expect(outcome.kind == .cycleDetected)
        #expect(await a.seen == ["x"])
        await b.link(nil)
        #expect(await a.send(ItemAdded(sku: "y")).kind == .interrupted)
    }
}
