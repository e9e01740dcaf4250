import Foundation
import Testing
import TipService
import TipcJSON
import TipcTestSupport

/// A scripted editor: runs the built `tipc lsp` as a process and talks to it through pipes,
/// framing messages as the protocol does. Every read is bounded (`timeout`), so a server that
/// does not answer fails the test instead of hanging it.
final class LanguageServerClient {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer: [UInt8] = []
    private var nextID = 1
    /// Notifications received while waiting for responses, oldest first.
    private(set) var notifications: [JSON] = []
    let timeout: Double

    /// The server's cache folder (where it writes the codes reference) when the test names
    /// none: a folder of the client's own, so that tests leave the user's cache alone.
    private let ownCache: TemporaryFolder?

    init(timeout: Double = 10, cacheFolder: String? = nil) throws {
        self.timeout = timeout
        ownCache = cacheFolder == nil ? try TemporaryFolder() : nil
        process.executableURL = try ExecutableTests.executable()
        process.arguments = ["lsp"]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = cacheFolder ?? ownCache?.path
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Starts the session: `initialize` (its result returned) and `initialized`.
    @discardableResult
    func initialize(initializationOptions: JSON? = nil) throws -> JSON {
        var params: [(String, JSON)] = [("processId", .null), ("rootUri", .null), ("capabilities", .object([]))]
        if let initializationOptions { params.append(("initializationOptions", initializationOptions)) }
        let result = try request("initialize", .object(params))
        notify("initialized", .object([]))
        return result
    }

    func writeRaw(_ bytes: [UInt8]) {
        input.fileHandleForWriting.write(Data(bytes))
    }

    func send(_ message: JSON) {
        let body = message.utf8()
        writeRaw(Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body)
    }

    func notify(_ method: String, _ params: JSON) {
        send(.object([("jsonrpc", .string("2.0")), ("method", .string(method)), ("params", params)]))
    }

    /// Sends a request and returns its whole response (`result` or `error`).
    func requestResponse(_ method: String, _ params: JSON) throws -> JSON {
        let id = nextID
        nextID += 1
        send(.object([("jsonrpc", .string("2.0")), ("id", .integer(Int64(id))), ("method", .string(method)), ("params", params)]))
        return try response(id: .integer(Int64(id)))
    }

    /// The diagnostics published for `uri` at `version` of its text, skipping publications of
    /// earlier versions (the server may publish the opened text before the changes arrive).
    func diagnostics(for uri: String, version: Int64) throws -> [JSON] {
        while true {
            if let index = notifications.firstIndex(where: { $0["method"] == .string("textDocument/publishDiagnostics") && $0["params"]?["uri"] == .string(uri) }) {
                let message = notifications.remove(at: index)
                guard message["params"]?["version"] == .integer(version) else { continue }
                guard case .array(let diagnostics)? = message["params"]?["diagnostics"] else { return [] }
                return diagnostics
            }
            let message = try next()
            if message["method"] != nil, message["id"] == nil { notifications.append(message) }
        }
    }

    /// Sends a request and returns its result; an error response fails.
    func request(_ method: String, _ params: JSON) throws -> JSON {
        let response = try requestResponse(method, params)
        if let error = response["error"] { throw ClientError.message("\(method) failed: \(error.serialized())") }
        return response["result"] ?? .null
    }

    /// The next response with `id`, keeping the notifications that come before it.
    func response(id: JSON) throws -> JSON {
        while true {
            let message = try next()
            if message["method"] == nil, message["id"] == id { return message }
            if message["method"] != nil, message["id"] == nil { notifications.append(message) }
        }
    }

    /// The next diagnostics published for `uri` (already received ones first).
    func diagnostics(for uri: String) throws -> [JSON] {
        while true {
            if let index = notifications.firstIndex(where: { $0["method"] == .string("textDocument/publishDiagnostics") && $0["params"]?["uri"] == .string(uri) }) {
                let message = notifications.remove(at: index)
                guard case .array(let diagnostics)? = message["params"]?["diagnostics"] else { return [] }
                return diagnostics
            }
            let message = try next()
            if message["method"] != nil, message["id"] == nil { notifications.append(message) }
        }
    }

    /// The next diagnostics published for each of `uris`: a change publishes every file of its
    /// program, so waiting for all of them leaves no publication of that change behind.
    func publications(_ uris: [String]) throws -> [String: [JSON]] {
        var found: [String: [JSON]] = [:]
        for uri in uris { found[uri] = try diagnostics(for: uri) }
        return found
    }

    /// Forgets the notifications received so far.
    func discardNotifications() { notifications = [] }

    /// The next message from the server.
    func next() throws -> JSON {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let end = headerEnd() {
                let header = String(decoding: buffer[..<end], as: UTF8.self)
                guard let line = header.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-length:") }),
                      let length = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) else {
                    throw ClientError.message("bad header from the server: \(header)")
                }
                if buffer.count >= end + 4 + length {
                    let body = Array(buffer[(end + 4)..<(end + 4 + length)])
                    buffer.removeFirst(end + 4 + length)
                    return try JSON.parse(body)
                }
            }
            try fill(until: deadline)
        }
    }

    private func headerEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4) where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }

    private func fill(until deadline: Date) throws {
        let descriptor = output.fileHandleForReading.fileDescriptor
        let remaining = deadline.timeIntervalSinceNow
        guard remaining > 0 else { throw ClientError.message("no message from the server within \(timeout) s") }
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(remaining * 1000)) > 0 else { throw ClientError.message("no message from the server within \(timeout) s") }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { throw ClientError.message("the server closed its output") }
        buffer += chunk[..<count]
    }

    /// Ends the session politely and returns the exit status.
    func shutdown() throws -> Int32 {
        _ = try request("shutdown", .null)
        notify("exit", .null)
        return waitForExit()
    }

    func waitForExit() -> Int32 {
        try? input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(2000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return process.terminationStatus
    }

    enum ClientError: Error, CustomStringConvertible {
        case message(String)
        var description: String {
            switch self {
            case .message(let text): return text
            }
        }
    }
}

/// Building protocol messages in tests.
enum LSP {
    static func uri(_ path: String) -> String { URL(fileURLWithPath: path).absoluteString }

    static func position(_ line: Int, _ character: Int) -> JSON {
        .object([("line", .integer(Int64(line))), ("character", .integer(Int64(character)))])
    }

    static func range(_ startLine: Int, _ startCharacter: Int, _ endLine: Int, _ endCharacter: Int) -> JSON {
        .object([("start", position(startLine, startCharacter)), ("end", position(endLine, endCharacter))])
    }

    static func document(_ uri: String) -> JSON { .object([("uri", .string(uri))]) }

    static func at(_ uri: String, _ line: Int, _ character: Int) -> JSON {
        .object([("textDocument", document(uri)), ("position", position(line, character))])
    }

    static func open(_ client: LanguageServerClient, _ path: String, _ text: String, version: Int = 1) {
        client.notify("textDocument/didOpen", .object([("textDocument", .object([
            ("uri", .string(uri(path))), ("languageId", .string("yaml")), ("version", .integer(Int64(version))), ("text", .string(text)),
        ]))]))
    }

    static func change(_ client: LanguageServerClient, _ path: String, version: Int, _ changes: [JSON]) {
        client.notify("textDocument/didChange", .object([
            ("textDocument", .object([("uri", .string(uri(path))), ("version", .integer(Int64(version)))])),
            ("contentChanges", .array(changes)),
        ]))
    }

    static func edit(_ range: JSON, _ text: String) -> JSON { .object([("range", range), ("text", .string(text))]) }

    /// The `(line, character)` of `needle`'s first occurrence in `text`, the character in UTF-16 units.
    static func find(_ needle: String, in text: String, offset: Int = 0) -> (line: Int, character: Int) {
        let lines = text.components(separatedBy: "\n")
        for (number, line) in lines.enumerated() {
            if let range = line.range(of: needle) {
                return (number, line[..<range.lowerBound].utf16.count + offset)
            }
        }
        Issue.record("'\(needle)' is not in the text")
        return (0, 0)
    }

    /// `text` with the edits of a `TextEdit` array applied (each on one line), in UTF-16 units.
    static func apply(_ edits: [JSON], to text: String) -> String {
        var lines = text.components(separatedBy: "\n")
        let sorted = edits.sorted { (int($0["range"]?["start"]?["line"]) ?? 0, int($0["range"]?["start"]?["character"]) ?? 0)
            > (int($1["range"]?["start"]?["line"]) ?? 0, int($1["range"]?["start"]?["character"]) ?? 0) }
        for edit in sorted {
            let line = int(edit["range"]?["start"]?["line"])!
            let start = int(edit["range"]?["start"]?["character"])!
            let end = int(edit["range"]?["end"]?["character"])!
            var units = Array(lines[line].utf16)
            units.replaceSubrange(start..<end, with: Array(string(edit["newText"])!.utf16))
            lines[line] = String(decoding: units, as: UTF16.self)
        }
        return lines.joined(separator: "\n")
    }

    static func labels(_ completion: JSON) -> [String] {
        guard case .array(let items)? = completion["items"] else { return [] }
        return items.compactMap { if case .string(let label)? = $0["label"] { return label } else { return nil } }
    }

    static func string(_ json: JSON?) -> String? {
        if case .string(let text)? = json { return text }
        return nil
    }

    static func int(_ json: JSON?) -> Int? {
        if case .integer(let value)? = json { return Int(value) }
        return nil
    }

    static func array(_ json: JSON?) -> [JSON] {
        if case .array(let items)? = json { return items }
        return []
    }
}
