import Foundation
import NIOCore
import NIOPosix

/// What became of one request of the raw client.
enum RequestResult: Sendable, Equatable {
    /// The server answered.
    case answered(RawResponse)
    /// The connection could not be made.
    case refusedAtConnect
    /// The connection was made, then reset or closed before a whole answer came.
    case resetAfterConnect
}

/// An answer, parsed just enough for the tests.
struct RawResponse: Sendable, Equatable {
    var status: Int
    var headers: [String: String]
    var body: String
}

/// A minimal HTTP/1.1 client over a NIO socket: one request per connection (`Connection: close`),
/// its answer read to the end. No new dependency, and every failure is told apart.
enum RawHTTPClient {
    static func request(
        port: Int, method: String = "POST", path: String, headers: [(String, String)] = [], body: String = ""
    ) async -> RequestResult {
        let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.seconds(10))
                .connect(host: "127.0.0.1", port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            return .refusedAtConnect
        }
        var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if !body.isEmpty { text += "Content-Type: application/json\r\n" }
        text += "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
        let request = text
        do {
            let received = try await channel.executeThenClose { inbound, outbound in
                try await outbound.write(ByteBuffer(string: request))
                var received = ByteBuffer()
                for try await var chunk in inbound { received.writeBuffer(&chunk) }
                return received
            }
            guard let response = parse(String(buffer: received)) else { return .resetAfterConnect }
            return .answered(response)
        } catch {
            return .resetAfterConnect
        }
    }

    /// The status, headers (lowercased names) and body of a whole answer; `nil` for a partial one.
    static func parse(_ text: String) -> RawResponse? {
        guard let split = text.range(of: "\r\n\r\n") else { return nil }
        let lines = text[..<split.lowerBound].split(separator: "\r\n")
        guard let statusLine = lines.first, statusLine.hasPrefix("HTTP/1.1 "),
            let status = Int(statusLine.dropFirst(9).prefix(3))
        else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] =
                line[line.index(after: colon)...].trimmingPrefix(" ").description
        }
        var body = String(text[split.upperBound...])
        if headers["transfer-encoding"] == "chunked" {
            guard let decoded = dechunk(body) else { return nil }
            body = decoded
        } else if let length = headers["content-length"].flatMap({ Int($0) }), body.utf8.count != length {
            return nil
        }
        return RawResponse(status: status, headers: headers, body: body)
    }

    /// The body of a chunked answer, `nil` if it did not end.
    static func dechunk(_ text: String) -> String? {
        var rest = Substring(text)
        var body = ""
        while let lineEnd = rest.range(of: "\r\n") {
            guard let size = Int(rest[..<lineEnd.lowerBound], radix: 16) else { return nil }
            if size == 0 { return body }
            let start = lineEnd.upperBound
            guard let end = rest.utf8.index(start, offsetBy: size, limitedBy: rest.utf8.endIndex) else {
                return nil
            }
            body += rest[start..<end]
            rest = rest[end...].dropFirst(2)
        }
        return nil
    }
}
