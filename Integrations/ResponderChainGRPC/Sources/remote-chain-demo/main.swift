// A gateway process and a backend process, one chain between them over gRPC:
//
//   swift run --package-path Integrations/ResponderChainGRPC remote-chain-demo
//
// The gateway (this process) starts the backend (this program again, `backend` on its command
// line), sends and posts orders through its remote link, stops the backend gracefully, shows
// what a send to a backend that is gone ends with, and prints the trace of both processes joined.
import Foundation

if CommandLine.arguments.dropFirst().first == "backend" {
    try await Backend.run()
} else {
    try await Gateway.run()
}
