import ResponderChain
@testable import ResponderChainGRPC
import Testing

@Suite("The identities of another process's responders")
struct RemoteResponderDirectoryTests {
    private static func responder(_ id: UInt64) -> WireResponder {
        WireResponder(id: id, label: "r\(id)")
    }

    @Test("a peer that names ever new responders cannot grow the directory past its capacity")
    func boundedByCapacity() {
        let directory = RemoteResponderDirectory(capacity: 64)
        for id in 0..<10_000 { _ = directory.id(of: Self.responder(UInt64(id))) }
        #expect(directory.count <= 64)
        #expect(directory.count > 0)
    }

    @Test("a responder seen again and again keeps its identity while others come and go")
    func recentlyUsedKeepsItsIdentity() {
        let directory = RemoteResponderDirectory(capacity: 8)
        let kept = Self.responder(UInt64.max)
        let first = directory.id(of: kept)
        for id in 0..<1_000 {
            _ = directory.id(of: Self.responder(UInt64(id)))
            #expect(directory.id(of: kept) == first)
        }
        #expect(first.label == "r\(UInt64.max)")
    }
}
