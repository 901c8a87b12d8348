import GRPCCore
import GRPCNIOTransportHTTP2
import RemoteOrders
import ResponderChain
@testable import ResponderChainGRPC
import ResponderChainTesting
import Testing

@Suite("gRPC statuses told truthfully at the link", .timeLimit(.minutes(1)))
struct GRPCStatusTests {
    @Test(
        "every gRPC status code a call fails with ends the send as the failure table says: unreachable only when nothing ran there, no answer at the deadline, cancelled only when this side cancelled, lost otherwise",
        arguments: StatusRow.table)
    func everyStatus(_ row: StatusRow) {
        let error = GRPCRemoteTransport.linkError(
            RPCError(code: row.code, message: row.message), callerCancelled: row.callerCancelled)
        #expect(Ending(error) == row.ending, "\(row.code): \(error)")
    }

    @Test("the table has a row for every gRPC status code but ok")
    func everyCodeHasARow() {
        let codes = (1...16).compactMap { Status.Code(rawValue: $0).flatMap(RPCError.Code.init) }
        #expect(codes.count == 16)
        for code in codes {
            #expect(StatusRow.table.contains { $0.code == code && !$0.callerCancelled }, "\(code)")
        }
    }

    @Test(
        "a server that ends the call CANCELLED, not this side, ends the send or post interrupted at the link, lost, dead-lettered: it may have run there",
        arguments: [Path.unary, .stream])
    func cancelledByTheServer(_ path: Path) async throws {
        let chain = SplitChain()
        let server = GRPCServer(
            transport: .http2NIOPosix(
                address: .ipv4(host: "127.0.0.1", port: 0), transportSecurity: .plaintext),
            services: [CancellingService()])
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { try await server.serve() }
            defer { server.beginGracefulShutdown() }
            let port = try #require(try await server.listeningAddress?.ipv4?.port)
            let transport = try GRPCRemoteTransport(host: "127.0.0.1", port: port)
            try await withLink(over: transport, in: chain.front, checkingRegistry: false) { link in
                let sender = Station("sender", .pass, next: link, system: chain.front)

                let outcome =
                    switch path {
                    case .unary: await sender.send(PlaceOrder(sku: "A-1"))
                    case .stream: await sender.post(PlaceOrder(sku: "A-1")).outcome
                    }
                let broken = try #require(outcome.interruptedDetails, "\(outcome)")
                #expect(broken.lastReached == ResponderID(link))
                guard case .lost = broken.cause as? RemoteLinkError else {
                    Issue.record("expected lost, got \(outcome)")
                    return
                }
                #expect(chain.frontLetters.outcomes.map(\.kind) == [.interrupted])
            }
        }
    }

    /// What a failed call ends as at the link.
    enum Ending: Sendable, Equatable {
        case unreachable, noAnswer, lost, cancelled, other

        init(_ error: any Error) {
            switch error {
            case RemoteLinkError.unreachable: self = .unreachable
            case RemoteLinkError.noAnswer: self = .noAnswer
            case RemoteLinkError.lost: self = .lost
            case is CancellationError: self = .cancelled
            default: self = .other
            }
        }
    }

    /// A status code, with what the call's failure said and whether this side cancelled it, and
    /// what the send ends as.
    struct StatusRow: Sendable, CustomTestStringConvertible {
        let code: RPCError.Code
        var message = "the call failed"
        var callerCancelled = false
        let ending: Ending

        var testDescription: String {
            "\(code)\(callerCancelled ? " (this side cancelled)" : ""): \(ending)"
        }

        static let table: [StatusRow] = [
            StatusRow(code: .cancelled, ending: .lost),
            StatusRow(code: .cancelled, callerCancelled: true, ending: .cancelled),
            StatusRow(code: .unknown, ending: .lost),
            StatusRow(code: .invalidArgument, ending: .lost),
            StatusRow(code: .deadlineExceeded, ending: .noAnswer),
            StatusRow(code: .notFound, ending: .lost),
            StatusRow(code: .alreadyExists, ending: .lost),
            StatusRow(code: .permissionDenied, ending: .lost),
            StatusRow(code: .resourceExhausted, ending: .lost),
            StatusRow(code: .failedPrecondition, ending: .lost),
            StatusRow(code: .aborted, ending: .lost),
            StatusRow(code: .outOfRange, ending: .lost),
            StatusRow(code: .unimplemented, ending: .unreachable),
            StatusRow(code: .internalError, ending: .lost),
            StatusRow(
                code: .unavailable, message: "Could not establish a connection to 127.0.0.1:1",
                ending: .unreachable),
            StatusRow(code: .unavailable, message: "Channel isn't ready.", ending: .unreachable),
            StatusRow(code: .unavailable, message: "The stream was closed", ending: .lost),
            StatusRow(code: .dataLoss, ending: .lost),
            StatusRow(code: .unauthenticated, ending: .lost),
        ]
    }

    enum Path: Sendable, CustomTestStringConvertible {
        case unary
        case stream

        var testDescription: String { self == .unary ? "an awaited send" : "a post on its stream" }
    }
}

/// A `RemoteChain` service, as a proxy in front of one, or a server stopping without the
/// service's graceful path, answers: every call ends `CANCELLED` once its first request is read.
private struct CancellingService: RegistrableRPCService {
    func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
        router.registerHandler(
            forMethod: RemoteChainMethods.deliver, deserializer: AnyBytes(), serializer: AnyBytes()
        ) { request, _ in
            for try await _ in request.messages { break }
            throw RPCError(code: .cancelled, message: "cancelled by the server")
        }
        router.registerHandler(
            forMethod: RemoteChainMethods.deliverInOrder, deserializer: AnyBytes(), serializer: AnyBytes()
        ) { request, _ in
            StreamingServerResponse { _ in
                for try await _ in request.messages { break }
                throw RPCError(code: .cancelled, message: "cancelled by the server")
            }
        }
    }
}

/// Bytes as they are, both ways.
private struct AnyBytes: MessageSerializer, MessageDeserializer {
    func serialize<Bytes: GRPCContiguousBytes>(_ message: [UInt8]) throws -> Bytes { Bytes(message) }

    func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> [UInt8] {
        serializedMessageBytes.withUnsafeBytes { Array($0) }
    }
}
