import Foundation
import Testing
import TipRuntime
import TipService
import TipcJSON

/// A `tipc serve` process on an ephemeral loopback port, stopped (SIGKILL) when released.
final class ServerProcess {
    let process = Process()
    let port: Int
    private let output = Pipe()

    /// Starts the built `tipc serve` and waits for its "listening on" line. `store` is an
    /// SQLite file's path or a `postgres://` URL.
    init(pack: String, store: String, extra: [String] = []) throws {
        process.executableURL = try ExecutableTests.executable()
        let storeOption = store.hasPrefix("postgres://") ? store : "sqlite:" + store
        process.arguments = ["serve", "--pack", pack, "--store", storeOption, "--listen", "127.0.0.1:0", "--threads", "4"] + extra
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw ServeTestError("the server printed no address: '\(text)'")
        }
        self.port = port
        ExchangeLog.servicePorts.withLock { _ = $0.insert(port) }
    }

    func request(_ method: String, _ path: String, body: String? = nil, headers: [String: String] = [:]) throws -> HTTPReply {
        try HTTPClient.send(port: port, method: method, path: path, body: body.map { Array($0.utf8) }, headers: headers)
    }

    /// Sends `signal` and waits for the exit.
    func stop(_ signal: Int32 = SIGKILL) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
    }

    deinit { stop() }
}

struct ServeTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// An answer as the client read it.
struct HTTPReply {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
    var json: JSON? { try? JSON.parse(body) }
}

/// A tiny HTTP/1.1 client over a POSIX socket (one request per connection), so the tests
/// need nothing beyond the toolchain.
enum HTTPClient {
    static func send(port: Int, method: String, path: String, body: [UInt8]?, headers: [String: String] = [:],
                     rawHead: String? = nil) throws -> HTTPReply {
        let descriptor = try connect(port: port)
        defer { close(descriptor) }
        var head = rawHead ?? "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        if rawHead == nil {
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            if let body { head += "Content-Length: \(body.count)\r\n" }
            head += "\r\n"
        }
        try write(descriptor, Array(head.utf8) + (body ?? []))
        let reply = try read(descriptor)
        if rawHead == nil { ExchangeLog.record(port: port, method: method, path: path, reply: reply) }
        return reply
    }

    static func connect(port: Int) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let status = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard status == 0 else {
            close(descriptor)
            throw ServeTestError("cannot connect to port \(port)")
        }
        return descriptor
    }

    static func write(_ descriptor: Int32, _ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw ServeTestError("the server closed the connection while the request was sent") }
            sent += count
        }
    }

    /// Reads until the server closes the connection, then parses the answer.
    static func read(_ descriptor: Int32) throws -> HTTPReply {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return try parse(received)
    }

    /// Parses an answer, skipping interim `100 Continue` ones.
    static func parse(_ received: [UInt8]) throws -> HTTPReply {
        guard let end = received.indices.first(where: { received[$0...].starts(with: [13, 10, 13, 10]) }) else {
            throw ServeTestError("no HTTP answer (\(received.count) bytes)")
        }
        let lines = String(decoding: received[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw ServeTestError("bad status line '\(lines[0])'") }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        if status == 100 { return try parse(Array(received[(end + 4)...])) }
        return HTTPReply(status: status, headers: headers, body: Array(received[(end + 4)...]))
    }
}

/// Every answer a real `tipc serve` gives the suite, written as one JSON line each to the file
/// `TIPC_TEST_HTTP_LOG` names (scripts/test.sh sets it, then checks every answer against
/// docs/openapi.yaml with scripts/validate-openapi.py).
enum ExchangeLog {
    /// The ports of `tipc serve` processes (other servers in the tests answer for themselves).
    static let servicePorts = RuntimeLock<Set<Int>>([])
    private static let file: Int32? = ProcessInfo.processInfo.environment["TIPC_TEST_HTTP_LOG"].map {
        open($0, O_WRONLY | O_APPEND | O_CREAT, 0o644)
    }

    static func record(port: Int, method: String, path: String, reply: HTTPReply) {
        guard let file, file >= 0, servicePorts.withLock({ $0.contains(port) }) else { return }
        let contentType = reply.headers["content-type"] ?? ""
        let entry: [String: Any] = [
            "source": "swift", "method": method, "path": path, "status": reply.status, "contentType": contentType,
            "body": contentType.hasPrefix("application/json") ? reply.text : "",
        ]
        guard var line = try? JSONSerialization.data(withJSONObject: entry, options: [.sortedKeys]) else { return }
        line.append(0x0A)
        // One write per line on a file opened for appending: lines from parallel tests never interleave.
        _ = line.withUnsafeBytes { Glibc.write(file, $0.baseAddress, $0.count) }
    }
}

/// The manifest the service tests run: a parameter, an event with a payload, two tips.
enum ServeFixture {
    static let manifest = """
        tipkit: 1
        parameters:
          isSignedIn: { type: bool, default: false }
        events:
          opened:
            value: { itemID: int }
        tips:
          favorite:
            title: Favorite It
            message: Add it to your favorites.
            image: heart
            maxDisplayCount: 3
            actions:
              - { id: learn-more, title: Learn More }
            rules:
              - $isSignedIn
              - opened.count >= 2
          welcome:
            title: Welcome
        """

    /// A folder with the manifest, and the service store's path in it.
    static func folder() throws -> (TemporaryFolder, manifest: String, store: String) {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app/app.yaml", manifest)
        return (folder, (manifest as NSString).deletingLastPathComponent, folder.path + "/serve.sqlite")
    }
}
