// swift-format-ignore-file
// Docs/Guide.md's Swift block of "More than one post at a time", verbatim (checked by
// DocSnippetTests), and the suite that runs it both ways.

import ResponderChain
import ResponderChainTesting
import Synchronization
import Testing

// snippet: Docs/Guide.md 34
struct RenderThumbnail: Event { let photo: Int }

actor Thumbnails: Responder {
    let render: @Sendable (Int) async throws -> Void     // 20 ms of work, say
    init(render: @escaping @Sendable (Int) async throws -> Void) { self.render = render }
    var next: (any Responder)? { nil }
    nonisolated var isRoot: Bool { true }

    static let strategies = Strategies<Thumbnails> {
        $0.on(RenderThumbnail.self) { thumbnails, event, context in
            context.releaseSenderLane()        // any order will do: the relay's next post may start
            try await thumbnails.render(event.photo)
            return .handled
        }
    }
}

func renderAll(_ photos: [Int], with thumbnails: Thumbnails) async -> [Ticket] {
    let uploads = Relay(entry: thumbnails, label: "uploads")   // one sender, one lane
    var tickets: [Ticket] = []
    for photo in photos {
        tickets.append(await uploads.post(RenderThumbnail(photo: photo)))   // all render at once
    }
    return tickets
}
// end snippet

extension Guide {
    enum MoreThanOnePost {
        /// The block's responder without the release: the relay's lane keeps its posts one at a
        /// time.
        actor OrderedThumbnails: Responder {
            let render: @Sendable (Int) async throws -> Void
            init(render: @escaping @Sendable (Int) async throws -> Void) { self.render = render }
            var next: (any Responder)? { nil }
            nonisolated var isRoot: Bool { true }

            static let strategies = Strategies<OrderedThumbnails> {
                $0.on(RenderThumbnail.self) { thumbnails, event, context in
                    try await thumbnails.render(event.photo)
                    return .handled
                }
            }
        }
    }
}

/// The Guide's section "More than one post at a time": what releasing the sender's lane buys,
/// and what one lane keeps.
@Suite("More than one post at a time")
struct MoreThanOnePostTests {
    @Test(
        "a handler that releases its lane has all of one relay's posts inside it at once",
        .timeLimit(.minutes(1)))
    func releasedPostsRunTogether() async throws {
        let gate = Gate()
        let thumbnails = Thumbnails { _ in try await gate.pass() }
        let photos = Array(1...8)

        let tickets = await renderAll(photos, with: thumbnails)
        try await gate.waitForArrivals(photos.count)  // all eight are parked in render together
        #expect(gate.arrivals == photos.count)
        gate.open()

        for ticket in tickets {
            #expect(await ticket.outcome.kind == .handled)
        }
    }

    @Test("without the release, one relay's posts enter the handler one at a time, in post order")
    func lanePostsRunOneAtATime() async throws {
        let log = RenderLog()
        let thumbnails = Guide.MoreThanOnePost.OrderedThumbnails { photo in
            log.append("start \(photo)")
            await Task.yield()  // a suspension: another post could start here if the lane let it
            log.append("end \(photo)")
        }
        let uploads = Relay(entry: thumbnails, label: "uploads")
        var tickets: [Ticket] = []
        for photo in 1...8 {
            tickets.append(await uploads.post(RenderThumbnail(photo: photo)))
        }
        for ticket in tickets {
            #expect(await ticket.outcome.kind == .handled)
        }
        #expect(log.entries == (1...8).flatMap { ["start \($0)", "end \($0)"] })
    }
}

/// What the renders did, in order, from any task.
private final class RenderLog: Sendable {
    private let state = Mutex<[String]>([])

    func append(_ entry: String) { state.withLock { $0.append(entry) } }
    var entries: [String] { state.withLock { $0 } }
}
