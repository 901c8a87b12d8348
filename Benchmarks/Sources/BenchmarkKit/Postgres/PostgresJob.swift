#if RemoteAndStores
    import ResponderChain

    /// The benchmark's event: job `number`, whose handler works for `workMicroseconds` (0: none).
    struct PostgresJob: Event, Codable {
        let number: Int
        let workMicroseconds: Int
    }

    /// The benchmark's desk: it handles each job (sleeping for its work, if any) and returns
    /// `.handled`.
    actor PostgresJobDesk: Responder {
        nonisolated let eventSystem: EventSystem

        init(system: EventSystem) {
            self.eventSystem = system
        }

        var next: (any Responder)? { nil }
        nonisolated var isRoot: Bool { true }

        static let strategies = Strategies<PostgresJobDesk> {
            $0.on(PostgresJob.self) { _, job, _ in
                if job.workMicroseconds > 0 { try await Task.sleep(for: .microseconds(job.workMicroseconds)) }
                return .handled
            }
        }
    }
#endif
