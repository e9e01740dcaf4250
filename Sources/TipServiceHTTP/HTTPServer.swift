import CMicroHTTPD
import TipRuntime
import TipService
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bounds that keep the server reachable under slow and many clients.
public struct HTTPLimits: Sendable {
    /// Connections open at once. A connection arriving when they are all open is let in, and
    /// the one that has been reading its request (or writing its answer) longest is closed.
    public var connections: Int
    /// Seconds a request may take to arrive whole (head and body), and its answer to leave;
    /// time in the handler does not count, idle time on a kept-alive connection does. Past
    /// it the connection is closed.
    public var requestSeconds: Double
    /// Query arguments a request may send; more is answered 414 at once.
    public var queryArguments: Int

    public init(connections: Int = 1_000, requestSeconds: Double = 30, queryArguments: Int = 64) {
        self.connections = connections
        self.requestSeconds = requestSeconds
        self.queryArguments = queryArguments
    }
}

/// An HTTP/1.1 server: libmicrohttpd reads and writes the connections on its own threads (epoll),
/// and hands each complete request to `RequestQueue`'s workers, oldest first; the connection
/// waits suspended until its worker has the response. Each request is judged on its head
/// before its body is read: ambiguous framing, a path that is not UTF-8 and too many query
/// arguments are refused here; `admit` refuses what the application refuses (a route, a key)
/// and bounds the body: a `Content-Length` over the limit is answered 413 at once, and a body
/// that grows past it while streaming (chunked) is dropped and answered 413. The head itself
/// is bounded by libmicrohttpd's memory per connection (431 past it). The handler runs on
/// the workers, many at once.
public final class HTTPServer: Sendable {
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse
    public typealias Admit = @Sendable (HTTPRequest) -> HTTPAdmission
    /// Last touch to every answer the server sends, the handler's and the server's own refusals
    /// alike, given the request's `Origin` header (the service adds its CORS headers here).
    public typealias Finish = @Sendable (HTTPResponse, _ origin: String?) -> HTTPResponse

    let handler: Handler
    let admit: Admit
    let finish: Finish
    let limits: HTTPLimits
    /// libmicrohttpd's daemon, a C handle: set once started, taken out (under the lock) by `stop`.
    private let daemon = RuntimeLock<OpaquePointer?>(nil)
    private let inFlight = RuntimeLock<Int>(0)
    /// Set when `stop` begins: a request arriving after it (on a kept-alive connection) is
    /// answered 503 without running, and every answer closes its connection.
    private let draining = RuntimeLock<Bool>(false)
    /// Set by `stop` once the requests in flight had their grace: a request no worker has
    /// started by then is answered 503 without running its handler.
    private let stopping = RuntimeLock<Bool>(false)
    private let workers: RequestQueue
    let connections: ConnectionTable
    /// libmicrohttpd's threads reading and writing the connections (each connection on one of
    /// them), apart from the workers: two served 8–10% more requests than one on this 2-core
    /// machine, the handlers' work being the workers'.
    static let pollingThreads = 2
    /// The address the server listens on, with the real port.
    public let address: ListenAddress

    /// Starts serving on `listener` (a bound, listening socket) with `threads` workers running
    /// the handler.
    public init(listener: ListenSocket, threads: Int, limits: HTTPLimits = HTTPLimits(), admit: @escaping Admit,
                finish: @escaping Finish = { response, _ in response }, handler: @escaping Handler) throws(ListenError) {
        self.handler = handler
        self.admit = admit
        self.finish = finish
        self.limits = limits
        self.address = listener.address
        connections = ConnectionTable(limit: limits.connections, requestSeconds: limits.requestSeconds)
        workers = RequestQueue(workers: threads)
        let context = Unmanaged.passUnretained(self).toOpaque()
        var options: [MHD_OptionItem] = [
            MHD_OptionItem(option: .LISTEN_SOCKET, value: Int(listener.descriptor), ptr_value: nil),
            // Inactivity alone; the whole request's deadline is `connections`'.
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: Int(limits.requestSeconds.rounded(.up)), ptr_value: nil),
            MHD_OptionItem(option: .THREAD_POOL_SIZE, value: Self.pollingThreads, ptr_value: nil),
            // Room over the limit, so that a newcomer is accepted while the connection it
            // evicts is being closed.
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: limits.connections + 64, ptr_value: nil),
            MHD_OptionItem(option: .NOTIFY_COMPLETED, value: Int(bitPattern: unsafeBitCast(requestCompleted, to: UnsafeRawPointer.self)),
                           ptr_value: context),
            MHD_OptionItem(option: .NOTIFY_CONNECTION, value: Int(bitPattern: unsafeBitCast(connectionChanged, to: UnsafeRawPointer.self)),
                           ptr_value: context),
            MHD_OptionItem(option: .URI_LOG_CALLBACK, value: Int(bitPattern: unsafeBitCast(requestLineRead, to: UnsafeRawPointer.self)),
                           ptr_value: context),
            MHD_OptionItem(option: .UNESCAPE_CALLBACK, value: Int(bitPattern: unsafeBitCast(keepEscaped, to: UnsafeRawPointer.self)),
                           ptr_value: nil),
            MHD_OptionItem(option: .END, value: 0, ptr_value: nil),
        ]
        // MHD_USE_INTERNAL_POLLING_THREAD (8) | MHD_USE_EPOLL (512) | MHD_ALLOW_SUSPEND_RESUME
        // (8192 | MHD_USE_ITC 1024, which MHD_quiesce_daemon needs too): the flags enum does not
        // import into Swift as values.
        let flags: UInt32 = 8 | 512 | 1024 | 8192
        let started = options.withUnsafeMutableBufferPointer { buffer in
            withVaList([Int32(MHD_OPTION.ARRAY.rawValue), buffer.baseAddress!, Int32(MHD_OPTION.END.rawValue)]) { arguments in
                MHD_start_daemon_va(flags, 0, nil, nil, accessHandler, context, arguments)
            }
        }
        daemon.withLock { $0 = started }
        guard started != nil else {
            workers.close()
            throw ListenError("libmicrohttpd could not start on \(listener.address)")
        }
        connections.startReaping()
    }

    deinit { stop(graceSeconds: 0) }

    /// Stops accepting connections and new requests, and waits (at most `graceSeconds`) for
    /// the requests in flight to be answered: a request that arrives on a kept-alive
    /// connection after this began is answered 503 (`stopping`, `Connection: close`) without
    /// running, and every answer closes its connection. Then the requests no worker has
    /// started are answered 503 too (their handlers never run, so a client may send them
    /// again), the workers finish those they hold (libmicrohttpd must not stop with a
    /// connection suspended), and once those answers are sent (at most 5 s more) the server
    /// stops.
    public func stop(graceSeconds: Int = 30) {
        // Taken out under the lock, so that only one caller stops it.
        guard let daemon = self.daemon.withLock({ current in defer { current = nil }; return current }) else { return }
        draining.withLock { $0 = true }
        let socket = MHD_quiesce_daemon(daemon)
        if socket >= 0 { close(socket) }
        waitForRequestsInFlight(seconds: graceSeconds)
        stopping.withLock { $0 = true }
        workers.close()
        // The workers resumed their connections; libmicrohttpd's threads send the answers.
        waitForRequestsInFlight(seconds: 5)
        connections.stopReaping()
        MHD_stop_daemon(daemon)
    }

    /// Returns once no request is in flight, or after `seconds`.
    private func waitForRequestsInFlight(seconds: Int) {
        var waited = 0
        while requestsInFlight > 0, waited < seconds * 100 {
            usleep(10_000)
            waited += 1
        }
    }

    // MARK: - Per-request state

    /// What the server holds for one request between libmicrohttpd's calls.
    /// Touched only on the libmicrohttpd thread that owns the connection.
    final class Exchange {
        /// The request without its body, as its head was read.
        var head: HTTPRequest
        var body: [UInt8] = []
        var tooLarge = false
        /// Answered on its head (refused): the rest of its body, if any, is dropped.
        var refused = false
        var limit = 0
        /// Set when the request went to a worker, which fills it before resuming the connection.
        var answer: RuntimeLock<HTTPResponse?>?

        init(head: HTTPRequest) { self.head = head }
    }

    /// Requests begun and not yet completed (their answers sent or their connections closed).
    var requestsInFlight: Int { inFlight.withLock { $0 } }
    /// Whether `stop` has begun answering new requests 503.
    var isStopping: Bool { stopping.withLock { $0 } }
    var isDraining: Bool { draining.withLock { $0 } }

    fileprivate func begin() { inFlight.withLock { $0 += 1 } }
    fileprivate func end() { inFlight.withLock { $0 -= 1 } }

    /// What a request's head opens: the exchange that reads its body, or a refusal to send at once.
    enum Opened {
        case exchange(Exchange)
        case refusal(HTTPResponse)
    }

    /// Judges a request on its head: the refusal to send at once, or the exchange that reads
    /// its body.
    fileprivate func open(_ connection: OpaquePointer, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?,
                          queryArguments: Int) -> Opened {
        let headers = HTTPValueCollector(), query = HTTPValueCollector()
        _ = MHD_get_connection_values(connection, MHD_ValueKind.HEADER_KIND, collectValue, Unmanaged.passUnretained(headers).toOpaque())
        // Two lengths, or a length and a transfer coding, read differently by different
        // servers (a proxy in front and this one): refused rather than guessed.
        let lengths = headers.values.count { $0.name.lowercased() == "content-length" }
        let codings = headers.values.count { $0.name.lowercased() == "transfer-encoding" }
        guard lengths <= 1, codings <= 1, lengths + codings <= 1 else {
            return .refusal(ServiceError(400, "ambiguous-framing", lengths > 1 ? "the request has more than one Content-Length header"
                                         : codings > 1 ? "the request has more than one Transfer-Encoding header"
                                         : "the request has both Content-Length and Transfer-Encoding headers",
                                         headers: [("Connection", "close")]).response)
        }
        guard queryArguments <= limits.queryArguments else {
            return .refusal(ServiceError(414, "too-many-query-arguments",
                                         "the request has more than \(limits.queryArguments) query arguments").response)
        }
        guard let url, let path = String(validatingCString: url), let method, let methodName = String(validatingCString: method) else {
            return .refusal(ServiceError(400, "bad-path", "the request's path is not UTF-8").response)
        }
        _ = MHD_get_connection_values(connection, MHD_ValueKind.GET_ARGUMENT_KIND, collectValue, Unmanaged.passUnretained(query).toOpaque())
        var decodedQuery: [String: String] = [:]
        for (key, value) in query.values {
            guard let key = PercentEncoding.decode(Substring(key), plusIsSpace: true),
                  let value = PercentEncoding.decode(Substring(value), plusIsSpace: true) else {
                return .refusal(ServiceError(400, "bad-query", "a query argument has a malformed %-escape or is not UTF-8").response)
            }
            decodedQuery[key] = value
        }
        var lowered: [String: String] = [:]
        for (key, value) in headers.values { lowered[key.lowercased()] = value }
        let head = HTTPRequest(method: methodName, path: path, query: decodedQuery, headers: lowered)
        if isDraining { return .refusal(ServiceError.stopping.response) }
        switch admit(head) {
        case .refuse(let response): return .refusal(response)
        case .read(let bodyLimit):
            if let text = lowered["content-length"], let length = Int(text.trimmingSpaces), length > bodyLimit {
                return .refusal(ServiceError.tooLarge(limit: bodyLimit).response)
            }
            let exchange = Exchange(head: head)
            exchange.limit = bodyLimit
            return .exchange(exchange)
        }
    }

    /// Hands the complete request to a worker and suspends the connection until the worker has
    /// answered; once the server is stopping, answers it 503 without running the handler.
    fileprivate func dispatch(_ exchange: Exchange, on connection: OpaquePointer) -> MHD_Result {
        let request = HTTPRequest(method: exchange.head.method, path: exchange.head.path, query: exchange.head.query,
                                  headers: exchange.head.headers, body: exchange.body)
        exchange.body = []
        let answer = RuntimeLock<HTTPResponse?>(nil)
        let handler = self.handler, stopping = self.stopping
        // libmicrohttpd lets any thread resume a connection; the worker gets the handle as an
        // address, and only resumes it.
        let address = Int(bitPattern: connection)
        connections.handling(connection)
        let queued = workers.submit(beforeQueueing: { MHD_suspend_connection(connection) }) {
            let response = stopping.withLock { $0 } ? ServiceError.stopping.response : handler(request)
            answer.withLock { $0 = response }
            MHD_resume_connection(OpaquePointer(bitPattern: address))
        }
        guard queued else { return send(ServiceError.stopping.response, on: connection) }
        exchange.answer = answer
        return MHD_Result.YES
    }

    fileprivate func send(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        connections.reading(connection)
        let origin = MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, "Origin").flatMap { String(validatingCString: $0) }
        let response = finish(response, origin)
        let created = response.body.withUnsafeBytes { buffer in
            MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
        }
        guard let created else { return MHD_Result.NO }
        for (name, value) in response.headers { _ = MHD_add_response_header(created, name, value) }
        if isDraining, !response.headers.contains(where: { $0.0.lowercased() == "connection" }) {
            _ = MHD_add_response_header(created, "Connection", "close")
        }
        let result = MHD_queue_response(connection, UInt32(response.status), created)
        MHD_destroy_response(created)
        return result
    }
}

/// The state of a request before its first call to the access handler: libmicrohttpd hands
/// the access handler what `requestLineRead` returned, an odd number (never an object's
/// address) holding the request's count of query arguments.
private enum RequestLineTag {
    static func make(arguments: Int) -> UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: arguments << 1 | 1) }
    /// The count of query arguments, when `pointer` is a tag and not an exchange.
    static func arguments(_ pointer: UnsafeMutableRawPointer) -> Int? {
        let bits = Int(bitPattern: pointer)
        return bits & 1 == 1 ? bits >> 1 : nil
    }
}

/// libmicrohttpd's access handler: called once with the headers (`*state` the request line's
/// tag), then with each piece of the body, then once more with none (the request is complete).
private let accessHandler: MHD_AccessHandlerCallback = { context, connection, url, method, _, uploadData, uploadSize, state in
    guard let context, let connection, let state, let uploadSize else { return MHD_Result.NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    let pointer = state.pointee
    if pointer == nil || RequestLineTag.arguments(pointer!) != nil {
        server.begin()
        switch server.open(connection, url: url, method: method, queryArguments: pointer.flatMap(RequestLineTag.arguments) ?? 0) {
        case .exchange(let exchange):
            state.pointee = Unmanaged.passRetained(exchange).toOpaque()
            return MHD_Result.YES
        case .refusal(let response):
            let exchange = HTTPServer.Exchange(head: HTTPRequest(method: "", path: ""))
            exchange.refused = true
            state.pointee = Unmanaged.passRetained(exchange).toOpaque()
            return server.send(response, on: connection)
        }
    }
    let exchange = Unmanaged<HTTPServer.Exchange>.fromOpaque(pointer!).takeUnretainedValue()
    if uploadSize.pointee > 0 {
        if !exchange.tooLarge, !exchange.refused, let uploadData {
            if exchange.body.count + uploadSize.pointee > exchange.limit {
                exchange.tooLarge = true
                exchange.body = []
            } else {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: uploadSize.pointee) { bytes in
                    exchange.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: uploadSize.pointee))
                }
            }
        }
        uploadSize.pointee = 0
        return MHD_Result.YES
    }
    if exchange.refused { return MHD_Result.YES }
    if exchange.tooLarge {
        return server.send(ServiceError.tooLarge(limit: exchange.limit).response, on: connection)
    }
    if let answer = exchange.answer {
        // Called again after the worker resumed the connection: its response is there.
        guard let response = answer.withLock({ $0 }) else { return MHD_Result.NO }
        return server.send(response, on: connection)
    }
    return server.dispatch(exchange, on: connection)
}

/// Called with the request line, before libmicrohttpd parses the query: counts the query's
/// arguments. Past the limit the query is emptied (the line is libmicrohttpd's own buffer,
/// which it cuts itself too), so that libmicrohttpd does not store hundreds of arguments (at
/// about 430 its memory for the connection runs out and the request is never answered);
/// the access handler then answers 414 from the count.
private let requestLineRead: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = { context, uri, _ in
    guard let context, let uri, let question = strchr(uri, Int32(UInt8(ascii: "?"))) else { return RequestLineTag.make(arguments: 0) }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    var arguments = 1
    var cursor = question + 1
    while cursor.pointee != 0 {
        if cursor.pointee == CChar(UInt8(ascii: "&")) { arguments += 1 }
        cursor += 1
    }
    // libmicrohttpd found the `?` before this call and parses what follows it after: ending the
    // text right after the `?` leaves it an empty query.
    if arguments > server.limits.queryArguments { UnsafeMutablePointer(mutating: question + 1).pointee = 0 }
    return RequestLineTag.make(arguments: min(arguments, 1 << 40))
}

private let requestCompleted: MHD_RequestCompletedCallback = { context, connection, state, _ in
    guard let context, let state, let pointer = state.pointee else { return }
    state.pointee = nil
    // A request refused before the access handler saw it (a head over the memory limit) has
    // only its tag.
    guard RequestLineTag.arguments(pointer) == nil else { return }
    Unmanaged<HTTPServer.Exchange>.fromOpaque(pointer).release()
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    if let connection { server.connections.reading(connection) }
    server.end()
}

private let connectionChanged: MHD_NotifyConnectionCallback = { context, connection, _, event in
    guard let context, let connection else { return }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    if event == MHD_ConnectionNotificationCode.CONNECTION_NOTIFY_STARTED {
        server.connections.opened(connection, socket: tipc_mhd_connection_socket(connection))
    } else {
        server.connections.closed(connection)
    }
}

/// Leaves `%XX` escapes in the path and query as they came: the server decodes each path
/// segment itself, so an escaped `/` in a user id stays inside the segment.
private let keepEscaped: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<CChar>?) -> Int = { _, _, text in
    guard let text else { return 0 }
    return strlen(text)
}

private let collectValue: MHD_KeyValueIterator = { context, _, key, value in
    guard let context, let key else { return MHD_Result.YES }
    let collector = Unmanaged<HTTPValueCollector>.fromOpaque(context).takeUnretainedValue()
    collector.values.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
    return MHD_Result.YES
}

/// Headers or query arguments, gathered by `collectValue`, each as sent (repeated ones too).
final class HTTPValueCollector {
    var values: [(name: String, value: String)] = []
}

extension String {
    var trimmingSpaces: Substring {
        var text = Substring(self)
        while text.first == " " || text.first == "\t" { text.removeFirst() }
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return text
    }
}
