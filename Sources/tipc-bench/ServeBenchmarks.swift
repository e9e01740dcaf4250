import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TipcCompiler
import TipRuntime
import TipRuntimeSQLite
import TipService
import TipServiceHTTP
import TipcDriver

/// The tip service over loopback: N concurrent keep-alive clients against `TipServer` on
/// libmicrohttpd, with requests/s and p50/p99 latency, beside two floors served the same way in
/// the same run: an empty handler (HTTP alone) and a handler reading the same user's rows with
/// one prepared SELECT (HTTP and the store's read, without the runtime). Stores of 1,000 and
/// 100,000 users, each with a parameter and 4 donations; every answer's status is checked.
/// With `postgresURL`, the same on `PostgresServiceStore`, each size in a new database made on
/// that server (and dropped after), the floor's SELECT run through a pool of connections.
func runServeBenchmarks(users counts: [Int], postgresURL: String? = nil, handlersOnly: Bool = false) {
    let source = """
        tipkit 1
        param isSignedIn: Bool = false
        event opened { itemID: Int }
        tip favorite {
          title "Favorite"
          rule $isSignedIn
          rule opened.count >= 3 within 7d
        }
        tip welcome {
          title "Welcome"
        }
        """
    let (result, compiled) = Frontend.compile(sources: [SourceFile(path: "bench.tips", text: source)])
    guard let compiled, let verified = try? RulePackVerifier.verify(compiled) else {
        print("serve: the benchmark's pack does not compile: \(result.diagnostics.map(\.message))")
        return
    }
    print("## tip service on \(postgresURL == nil ? "SQLite" : "PostgreSQL") (loopback, \(ProcessInfo.processInfo.activeProcessorCount) cores, 2 polling threads and 8 workers, 32 clients)")
    for users in counts.isEmpty ? [1_000, 100_000] : counts {
        do {
            var bench = ServeBench(users: users, pack: ServicePack(verified: verified))
            bench.handlersOnly = handlersOnly
            if let postgresURL { try bench.runOnPostgres(postgresURL) } else { try bench.run() }
        } catch {
            print("serve: \(error)")
        }
    }
}

struct ServeBench {
    let users: Int
    let pack: ServicePack
    let clients = 32
    let rounds = 5
    /// Only the handlers' CPU figures, without the load over HTTP (for profiling).
    var handlersOnly = false

    func run() throws {
        guard let folder = ProcessTiming.temporaryFolder("tipc-bench-serve") else { throw ServeBenchError("cannot make a temporary folder") }
        defer { _ = try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/serve.sqlite"
        let store = try SQLiteServiceStore(path: path)
        try populate(path)
        let reader = try SQLiteConnection(path: path)
        // The floor's connection gets the service's page cache.
        try reader.withSession { try $0.execute("PRAGMA cache_size=-65536") }
        let server = TipServer(pack: pack, store: store, keys: nil)

        let phases = [
            try Phase("floor: empty handler", method: "GET", path: { _ in "/x" }, expect: 200) { _ in
                HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: Array("{}\n".utf8))
            },
            try Phase("floor: one prepared SELECT", method: "GET", path: { "/\($0)" }, expect: 200) { request in
                let user = String(request.path.dropFirst())
                let rows: Int? = try? reader.withSession { session in
                    try session.query("SELECT id, event, date, value FROM service_donations WHERE user_id = ?1 ORDER BY date, id", [.text(user)]) { rows in
                        var count = 0
                        while try rows.next() { count += rows.text(0).utf8.count > 0 ? 1 : 0 }
                        return count
                    }
                }
                guard let rows, rows >= 4 else { return HTTPResponse(status: 500) }  // 4, and any donations the POST figure added
                return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: Array("{\"rows\":\(rows)}\n".utf8))
            },
            try Phase("GET /v1/users/{user}/tips", method: "GET", path: { "/v1/users/\($0)/tips" }, expect: 200) { server.handle($0) },
            try Phase("POST /v1/users/{user}/events/opened", method: "POST", path: { "/v1/users/\($0)/events/opened" },
                      body: #"{"value":{"itemID":1}}"#, expect: 201) { server.handle($0) },
        ]
        try measure(phases)
    }

    /// Runs the phases (the two floors, GET tips, POST a donation) and prints their figures.
    func measure(_ phases: [Phase], onPostgres: Bool = false) throws {
        try measureHandlers(floor: phases[1], get: phases[2], onPostgres: onPostgres)
        if handlersOnly { return }
        // In turns: each round gives every phase one second, so a neighbour's load falls on all.
        var figures = [Samples](repeating: Samples(), count: phases.count)
        for _ in 0..<rounds {
            for (index, phase) in phases.enumerated() { figures[index].add(try load(phase)) }
        }
        for phase in phases { phase.server.stop() }
        print("\(users) users (\(rounds) rounds of 1 s per figure, in turns):")
        for (phase, samples) in zip(phases, figures) {
            print("  \(phase.name.padding(toLength: 38, withPad: " ", startingAt: 0)) \(fixed(samples.rate, 0)) req/s   p50 \(fixed(samples.percentile(50) * 1000, 2)) ms   p99 \(fixed(samples.percentile(99) * 1000, 2)) ms")
        }
        print("  GET tips throughput: \(fixed(figures[1].rate / figures[2].rate, 2))× below the SELECT floor, \(fixed(figures[0].rate / figures[2].rate, 2))× below the empty handler")
    }

    /// The CPU time of the one-SELECT floor's handler and of GET tips' handler, called on this
    /// thread without HTTP (what a request costs the server beyond the HTTP both share), in
    /// turns, 5 rounds of 2,000 requests each for random users; every answer's status checked.
    /// On PostgreSQL the server's backends do part of the work, in other processes: not counted.
    func measureHandlers(floor: Phase, get: Phase, onPostgres: Bool) throws {
        var cpu = [[Double]](repeating: [], count: 2)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<rounds {
            for (index, phase) in [floor, get].enumerated() {
                let requests = (0..<2_000).map { _ in HTTPRequest(method: "GET", path: phase.path("u\(Int.random(in: 0..<users, using: &generator))")) }
                let started = threadCPU()
                for request in requests {
                    let response = phase.handler(request)
                    if response.status != phase.expect { throw ServeBenchError("\(phase.name): status \(response.status) for \(request.path)") }
                }
                cpu[index].append((threadCPU() - started) / Double(requests.count))
            }
        }
        let floorCost = Measure.median(of: cpu[0]), getCost = Measure.median(of: cpu[1])
        print("\(users) users, handlers alone on one thread (this thread's CPU per request\(onPostgres ? ", not PostgreSQL's" : ""), medians of \(rounds) rounds of 2,000):")
        print("  one prepared SELECT \(fixed(floorCost * 1e6, 1)) µs, GET tips \(fixed(getCost * 1e6, 1)) µs (\(fixed(getCost / floorCost, 2))×)")
    }

    /// Every user with `isSignedIn` and 4 donations, written in one transaction (setup only).
    private func populate(_ path: String) throws {
        let connection = try SQLiteConnection(path: path)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        try connection.withSession { session in
            try session.transaction { tx in
                for user in 0..<users {
                    let id = "u\(user)"
                    try tx.run("INSERT INTO service_parameters(user_id, name, value, stamp_ms, stamp_device) VALUES (?1, 'isSignedIn', ?2, ?3, ?4)",
                               [.text(id), .text(RuntimeValue.bool(user % 2 == 0).storageText), .integer(Int(now)), .text(ServiceDeviceID.forUser(id))])
                    for donation in 0..<4 {
                        try tx.run("INSERT INTO service_donations(user_id, id, event, date, value) VALUES (?1, ?2, 'opened', ?3, ?4)",
                                   [.text(id), .text(RecordID.random()), .integer(Int(now) - donation * 3_600_000),
                                    .text(PayloadStorage.encode(["itemID": .int(Int64(donation))]))])
                    }
                }
            }
        }
    }

    /// One figure's server, on a free loopback port, and the requests that drive it.
    struct Phase {
        let name: String
        let method: String
        let path: @Sendable (String) -> String
        let body: [UInt8]
        let expect: Int
        let handler: HTTPServer.Handler
        let server: HTTPServer

        init(_ name: String, method: String, path: @escaping @Sendable (String) -> String, body: String = "", expect: Int,
             handler: @escaping HTTPServer.Handler) throws {
            self.name = name
            self.method = method
            self.path = path
            self.body = Array(body.utf8)
            self.expect = expect
            self.handler = handler
            let listener = try ListenSocket(ListenAddress(host: "127.0.0.1", port: 0))
            server = try HTTPServer(listener: listener, threads: 8, admit: { _ in .read(bodyLimit: 65_536) }, handler: handler)
        }
    }

    /// Latencies and the time they took, over rounds.
    struct Samples {
        var latencies: [Double] = []
        var seconds = 0.0
        mutating func add(_ round: (latencies: [Double], seconds: Double)) {
            latencies += round.latencies
            seconds += round.seconds
        }
        var rate: Double { Double(latencies.count) / seconds }
        func percentile(_ p: Int) -> Double {
            let sorted = latencies.sorted()
            return sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, sorted.count * p / 100)]
        }
    }

    /// Drives `phase` with `clients` keep-alive clients for one second, each request for a
    /// random user; every answer must have the phase's status.
    private func load(_ phase: Phase) throws -> (latencies: [Double], seconds: Double) {
        let latencies = RuntimeLock<[Double]>([])
        let failures = RuntimeLock<[String]>([])
        let users = self.users, port = phase.server.address.port
        let started = monotonic()
        // One thread per client: `concurrentPerform` runs only as many iterations at once as
        // there are cores, which made the 32 clients two on this machine.
        let running = DispatchGroup()
        for client in 0..<clients {
            running.enter()
            Thread {
                defer { running.leave() }
                var generator = SystemRandomNumberGenerator()
                var mine: [Double] = []
                do {
                    let connection = try KeepAliveConnection(port: port)
                    while monotonic() - started < 1 {
                        let user = "u\(Int.random(in: 0..<users, using: &generator))"
                        let sent = monotonic()
                        let status = try connection.send(method: phase.method, path: phase.path(user), body: phase.body)
                        mine.append(monotonic() - sent)
                        if status != phase.expect { throw ServeBenchError("\(phase.name): status \(status) for \(user)") }
                    }
                } catch {
                    failures.withLock { $0.append("client \(client): \(error)") }
                }
                latencies.withLock { $0 += mine }
            }.start()
        }
        running.wait()
        let elapsed = monotonic() - started
        if let failure = failures.withLock({ $0.first }) { throw ServeBenchError(failure) }
        return (latencies.withLock { $0 }, elapsed)
    }
}

/// `value` with `decimals` digits after the point.
private func fixed(_ value: Double, _ decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = String(rounded)
    if decimals == 0, text.hasSuffix(".0") { text.removeLast(2) }
    return text
}

/// This thread's CPU time, in seconds.
private func threadCPU() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

private func monotonic() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

struct ServeBenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// One HTTP/1.1 keep-alive connection: sends a request, reads the answer by `Content-Length`.
private final class KeepAliveConnection {
    let descriptor: Int32
    private var buffer: [UInt8] = []

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var noDelay: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        let status = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard status == 0 else { throw ServeBenchError("cannot connect to port \(port)") }
    }

    deinit { close(descriptor) }

    /// Sends one request and returns the answer's status once its whole body is read.
    func send(method: String, path: String, body: [UInt8]) throws -> Int {
        let head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\n\r\n"
        let request = Array(head.utf8) + body
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw ServeBenchError("the connection closed") }
            sent += count
        }
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            if let end = headEnd() {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                let lines = head.split(separator: "\r\n")
                guard let first = lines.first, first.split(separator: " ").count >= 2, let status = Int(first.split(separator: " ")[1]) else {
                    throw ServeBenchError("bad answer")
                }
                let length = lines.dropFirst().first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).filter { $0 != " " }) } ?? 0
                if buffer.count >= end + 4 + length {
                    buffer.removeFirst(end + 4 + length)
                    return status
                }
            }
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw ServeBenchError("the connection closed") }
            buffer += chunk[0..<count]
        }
    }

    private func headEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4) where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }
}
