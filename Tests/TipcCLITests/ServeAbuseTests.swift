import Foundation
import Testing
import TipRuntime
import TipService
import TipServiceHTTP

/// `tipc serve` against hostile and careless clients, as a real process on loopback:
/// ambiguous framing, paths that are not UTF-8, too many query arguments, keys checked
/// before the body, slow and many clients, and SIGTERM on kept-alive connections. Every
/// client here is bounded: a socket waits at most `RawConnection.timeoutSeconds` for an answer.
@Suite("tipc serve: hostile clients", .serialized)
struct ServeAbuseTests {
    @Test func ambiguousFramingAndPathsThatAreNotUTF8AreRefused400() throws {
        let (folder, manifest, store) = try ServeFixture.folder()
        _ = folder
        let server = try ServerProcess(pack: manifest, store: store)
        let event = "POST /v1/users/ann/events/opened HTTP/1.1\r\nHost: x\r\n"
        let body = #"{"value":{"itemID":1}}"#
        let cases: [(String, [UInt8], String)] = [
            ("two lengths", Array((event + "Content-Length: \(body.count)\r\nContent-Length: \(body.count)\r\n\r\n" + body).utf8), "ambiguous-framing"),
            ("length and chunked", Array((event + "Content-Length: \(body.count)\r\nTransfer-Encoding: chunked\r\n\r\n"
                                          + String(body.count, radix: 16) + "\r\n" + body + "\r\n0\r\n\r\n").utf8), "ambiguous-framing"),
            ("two codings", Array((event + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n").utf8), "ambiguous-framing"),
            ("a raw byte that is not UTF-8", Array("GET /v1/users/ann".utf8) + [0xFF] + Array("/tips HTTP/1.1\r\nHost: x\r\n\r\n".utf8), "bad-path"),
            ("an escaped byte that is not UTF-8", Array("GET /v1/users/ann%FF/tips HTTP/1.1\r\nHost: x\r\n\r\n".utf8), "bad-path"),
            ("a query value that is not UTF-8", Array("GET /v1/users/ann/tips?locale=%C3 HTTP/1.1\r\nHost: x\r\n\r\n".utf8), "bad-query"),
        ]
        for (name, request, code) in cases {
            let reply = try RawConnection(port: server.port).exchange(request)
            #expect(reply?.status == 400, "\(name): \(reply?.text ?? "no answer")")
            #expect(reply?.json?["error"]?["code"] == .string(code), "\(name): \(reply?.text ?? "no answer")")
        }
        // Nothing of those reached the store: ann has no donation.
        let snapshot = try server.request("POST", "/v1/users/ann/sync", body: "{}")
        #expect(snapshot.json?["donations"] == .array([]), "\(snapshot.text)")
    }

    @Test func tooManyQueryArgumentsAndTooLargeHeadsAreAnsweredAtOnce() throws {
        let (folder, manifest, store) = try ServeFixture.folder()
        _ = folder
        let server = try ServerProcess(pack: manifest, store: store)
        for count in [HTTPLimits().queryArguments + 1, 427, 1_000] {
            let query = (0..<count).map { "a\($0)=1" }.joined(separator: "&")
            let reply = try RawConnection(port: server.port).exchange(Array("GET /healthz?\(query) HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            #expect(reply?.status == 414, "\(count) arguments: \(reply?.text ?? "no answer")")
            #expect(reply?.json?["error"]?["code"] == .string("too-many-query-arguments"))
        }
        let allowed = (0..<HTTPLimits().queryArguments).map { "a\($0)=1" }.joined(separator: "&")
        #expect(try RawConnection(port: server.port).exchange(Array("GET /healthz?\(allowed) HTTP/1.1\r\nHost: x\r\n\r\n".utf8))?.status == 200)
        let head = "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Filler: \(String(repeating: "a", count: 40_000))\r\n\r\n"
        #expect(try RawConnection(port: server.port).exchange(Array(head.utf8))?.status == 431)
    }

    @Test func keysAreCheckedOnTheHeadBeforeTheBodyIsRead() throws {
        let (folder, manifest, store) = try ServeFixture.folder()
        let keys = try folder.write("keys", "client \(SHA256.hex(Array("client-token".utf8))) web\n")
        let server = try ServerProcess(pack: manifest, store: store, extra: ["--keys", keys])
        // Only the heads are sent: each answer comes without the body.
        let noKey = "POST /v1/users/ann/sync HTTP/1.1\r\nHost: x\r\nContent-Length: 60000\r\n\r\n"
        #expect(try RawConnection(port: server.port).exchange(Array(noKey.utf8))?.status == 401)
        let clientKey = "PUT /v1/pack HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer client-token\r\nContent-Length: 1000000\r\n\r\n"
        #expect(try RawConnection(port: server.port).exchange(Array(clientKey.utf8))?.status == 403)
        let wrongRoute = "POST /v1/users/ann/nothing HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer client-token\r\nContent-Length: 60000\r\n\r\n"
        #expect(try RawConnection(port: server.port).exchange(Array(wrongRoute.utf8))?.status == 404)
        let getWithBody = "GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 60000\r\n\r\n"
        #expect(try RawConnection(port: server.port).exchange(Array(getWithBody.utf8))?.status == 413)
    }

    /// 300 connections trickle bodies into a server that holds at most 100 (and gives each
    /// request 30 s): each newcomer closes the connection reading longest, so `/healthz` still
    /// answers at once.
    @Test func healthzAnswersWhileManyConnectionsTrickleBodies() throws {
        let (folder, manifest, store) = try ServeFixture.folder()
        _ = folder
        let server = try ServerProcess(pack: manifest, store: store, extra: ["--max-connections", "100"])
        var tricklers: [RawConnection] = []
        defer { for trickler in tricklers { trickler.close() } }
        for index in 0..<300 {
            let trickler = try RawConnection(port: server.port)
            // Sent whole or cut short by the server: either way the connection holds no answer yet.
            _ = trickler.send(Array("POST /v1/users/u\(index)/events/opened HTTP/1.1\r\nHost: x\r\nContent-Length: 60000\r\n\r\n{".utf8))
            tricklers.append(trickler)
        }
        for round in 0..<3 {
            for trickler in tricklers { _ = trickler.send(Array(" ".utf8)) }
            let health = try RawConnection(port: server.port).exchange(Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            #expect(health?.status == 200, "round \(round): \(health?.text ?? "no answer")")
        }
    }

    /// A request slower than `--request-timeout` is closed however steadily it trickles.
    @Test func aRequestTricklingPastTheDeadlineIsClosed() throws {
        let (folder, manifest, store) = try ServeFixture.folder()
        _ = folder
        let server = try ServerProcess(pack: manifest, store: store, extra: ["--request-timeout", "1"])
        // A byte every 100 ms: never idle long enough for an inactivity timeout.
        let slow = try RawConnection(port: server.port)
        _ = slow.send(Array("POST /v1/users/slow/events/opened HTTP/1.1\r\nHost: x\r\nContent-Length: 60000\r\n\r\n{".utf8))
        var closed = false
        for _ in 0..<60 where !closed {
            usleep(100_000)
            closed = !slow.send(Array(" ".utf8)) || slow.isClosedByPeer()
        }
        #expect(closed, "a request trickling for 6 s was not closed by a 1 s deadline")
        #expect(try server.request("GET", "/healthz").status == 200)
    }

    /// After SIGTERM a kept-alive connection's next request is refused (503 `stopping`,
    /// `Connection: close`) at once, while a request already in flight finishes.
    @Test func sigtermRefusesNewRequestsOnKeptAliveConnections() throws {
        let (folder, manifest, store) = try ServeFixture.folder()
        _ = folder
        let server = try ServerProcess(pack: manifest, store: store)
        let keptAlive = try RawConnection(port: server.port)
        defer { keptAlive.close() }
        let healthz = Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        #expect(keptAlive.send(healthz))
        #expect(keptAlive.readAnswer()?.status == 200)
        // In flight: the head and part of the body.
        let body = Array(#"{"value":{"itemID":5}}"#.utf8)
        let inFlight = try RawConnection(port: server.port)
        defer { inFlight.close() }
        #expect(inFlight.send(Array("POST /v1/users/ann/events/opened HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body.prefix(5)))
        usleep(100_000)
        kill(server.process.processIdentifier, SIGTERM)
        // Until the signal is taken, the kept-alive connection may still be served; from then on
        // its next request is refused. (Without the refusal it is served for the whole 30 s grace.)
        // An answer sent once the signal is taken closes the connection: the last answer on it is
        // either the refusal (503 `stopping`) or one served in the moment before the server
        // began refusing, which then says `Connection: close`; either way no request after it is
        // taken on that connection.
        var last: HTTPReply?
        for _ in 0..<100 {
            guard keptAlive.send(healthz), let reply = keptAlive.readAnswer() else { break }
            last = reply
            if reply.status == 503 || reply.headers["connection"]?.lowercased() == "close" { break }
            usleep(20_000)
        }
        #expect(last?.headers["connection"]?.lowercased() == "close", "\(last?.text ?? "no answer")")
        if last?.status == 503 {
            #expect(last?.json?["error"]?["code"] == .string("stopping"), "\(last?.text ?? "")")
        }
        #expect(!(keptAlive.send(healthz) && keptAlive.readAnswer() != nil), "a request after the close was answered")
        #expect(inFlight.send(Array(body.dropFirst(5))))
        let reply = inFlight.readAnswer()
        #expect(reply?.status == 201, "\(reply?.text ?? "no answer")")
        server.process.waitUntilExit()
        #expect(server.process.terminationStatus == 0)
    }
}

/// One client socket with a bounded wait: an answer read by its `Content-Length`, so a
/// kept-alive connection can send again.
final class RawConnection {
    static let timeoutSeconds = 5
    let descriptor: Int32

    init(port: Int) throws {
        descriptor = try HTTPClient.connect(port: port)
        var timeout = timeval(tv_sec: Self.timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close() }

    private var isOpen = true
    func close() {
        guard isOpen else { return }
        isOpen = false
        Glibc.close(descriptor)
    }

    /// Sends `bytes`; false when the connection is closed.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        (try? HTTPClient.write(descriptor, bytes)) != nil
    }

    /// Sends a request and reads its answer, then closes.
    func exchange(_ request: [UInt8]) throws -> HTTPReply? {
        defer { close() }
        _ = send(request)
        return readAnswer()
    }

    /// Whether the server closed the connection (a read sees its end at once).
    func isClosedByPeer() -> Bool {
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, Int32(MSG_DONTWAIT)) == 0
    }

    /// One answer: its head, then `Content-Length` bytes of body; nil when none came in time.
    func readAnswer() -> HTTPReply? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let end = received.indices.first(where: { received[$0...].starts(with: [13, 10, 13, 10]) }),
               let reply = try? HTTPClient.parse(Array(received[...(end + 3)])) {
                let length = Int(reply.headers["content-length"] ?? "0") ?? 0
                if received.count >= end + 4 + length {
                    return HTTPReply(status: reply.status, headers: reply.headers, body: Array(received[(end + 4)..<(end + 4 + length)]))
                }
            }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return nil }
            received += buffer[0..<count]
        }
    }
}
