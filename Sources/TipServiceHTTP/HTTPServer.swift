import CMicroHTTPD
import TipRuntime
import TipService
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An HTTP/1.1 server: libmicrohttpd reads and writes the connections on its own threads (epoll),
/// and hands each complete request to `RequestQueue`'s workers, oldest first; the connection
/// waits suspended until its worker has the response. Each request's body is bounded before
/// it is read: a `Content-Length` over the limit is answered 413 at once, and a body that
/// grows past it while streaming (chunked) is dropped and answered 413. The handler runs on
/// the workers, many at once.
public final class HTTPServer: Sendable {
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    let handler: Handler
    /// The largest body a request may send, by method and path.
    let bodyLimit: @Sendable (_ method: String, _ path: String) -> Int
    /// libmicrohttpd's daemon, a C handle: set once started, taken out (under the lock) by `stop`.
    private let daemon = RuntimeLock<OpaquePointer?>(nil)
    private let inFlight = RuntimeLock<Int>(0)
    /// Set by `stop` once the requests in flight had their grace: a request no worker has
    /// started by then is answered 503 without running its handler.
    private let stopping = RuntimeLock<Bool>(false)
    private let workers: RequestQueue
    /// libmicrohttpd's threads reading and writing the connections (each connection on one of
    /// them), apart from the workers: two served 8–10% more requests than one on this 2-core
    /// machine, the handlers' work being the workers'.
    static let pollingThreads = 2
    /// The address the server listens on, with the real port.
    public let address: ListenAddress

    /// Starts serving on `listener` (a bound, listening socket) with `threads` workers running
    /// the handler.
    public init(listener: ListenSocket, threads: Int, bodyLimit: @escaping @Sendable (_ method: String, _ path: String) -> Int,
                handler: @escaping Handler) throws(ListenError) {
        self.handler = handler
        self.bodyLimit = bodyLimit
        self.address = listener.address
        workers = RequestQueue(workers: threads)
        let context = Unmanaged.passUnretained(self).toOpaque()
        var options: [MHD_OptionItem] = [
            MHD_OptionItem(option: .LISTEN_SOCKET, value: Int(listener.descriptor), ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: 30, ptr_value: nil),
            MHD_OptionItem(option: .THREAD_POOL_SIZE, value: Self.pollingThreads, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: 1_000, ptr_value: nil),
            MHD_OptionItem(option: .NOTIFY_COMPLETED, value: Int(bitPattern: unsafeBitCast(requestCompleted, to: UnsafeRawPointer.self)),
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
    }

    deinit { stop(graceSeconds: 0) }

    /// Stops accepting connections and waits (at most `graceSeconds`) for the requests in flight
    /// to be answered. Then the requests no worker has started are answered 503 (`stopping`:
    /// their handlers never run, so a client may send them again), the workers finish those
    /// they hold (libmicrohttpd must not stop with a connection suspended), and once those
    /// answers are sent (at most 5 s more) the server stops.
    public func stop(graceSeconds: Int = 30) {
        // Taken out under the lock, so that only one caller stops it.
        guard let daemon = self.daemon.withLock({ current in defer { current = nil }; return current }) else { return }
        let socket = MHD_quiesce_daemon(daemon)
        if socket >= 0 { close(socket) }
        waitForRequestsInFlight(seconds: graceSeconds)
        stopping.withLock { $0 = true }
        workers.close()
        // The workers resumed their connections; libmicrohttpd's threads send the answers.
        waitForRequestsInFlight(seconds: 5)
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
        var body: [UInt8] = []
        var tooLarge = false
        var limit = 0
        /// Set when the request went to a worker, which fills it before resuming the connection.
        var answer: RuntimeLock<HTTPResponse?>?
    }

    /// Requests begun and not yet completed (their answers sent or their connections closed).
    var requestsInFlight: Int { inFlight.withLock { $0 } }
    /// Whether `stop` has begun answering new requests 503.
    var isStopping: Bool { stopping.withLock { $0 } }

    fileprivate func begin() { inFlight.withLock { $0 += 1 } }
    fileprivate func end() { inFlight.withLock { $0 -= 1 } }

    fileprivate func request(_ connection: OpaquePointer, url: String, method: String, body: [UInt8]) -> HTTPRequest {
        let headers = HTTPValueCollector(), query = HTTPValueCollector()
        _ = MHD_get_connection_values(connection, MHD_ValueKind.HEADER_KIND, collectValue, Unmanaged.passUnretained(headers).toOpaque())
        _ = MHD_get_connection_values(connection, MHD_ValueKind.GET_ARGUMENT_KIND, collectValue, Unmanaged.passUnretained(query).toOpaque())
        var decodedQuery: [String: String] = [:]
        for (key, value) in query.values {
            if let key = PercentEncoding.decode(Substring(key), plusIsSpace: true) {
                decodedQuery[key] = PercentEncoding.decode(Substring(value), plusIsSpace: true) ?? value
            }
        }
        var lowered: [String: String] = [:]
        for (key, value) in headers.values { lowered[key.lowercased()] = value }
        return HTTPRequest(method: method, path: url, query: decodedQuery, headers: lowered, body: body)
    }

    /// Hands the complete request to a worker and suspends the connection until the worker has
    /// answered; once the server is stopping, answers it 503 without running the handler.
    fileprivate func dispatch(_ request: HTTPRequest, exchange: Exchange, on connection: OpaquePointer) -> MHD_Result {
        let answer = RuntimeLock<HTTPResponse?>(nil)
        let handler = self.handler, stopping = self.stopping
        // libmicrohttpd lets any thread resume a connection; the worker gets the handle as an
        // address, and only resumes it.
        let address = Int(bitPattern: connection)
        let queued = workers.submit(beforeQueueing: { MHD_suspend_connection(connection) }) {
            let response = stopping.withLock { $0 } ? ServiceError.stopping.response : handler(request)
            answer.withLock { $0 = response }
            MHD_resume_connection(OpaquePointer(bitPattern: address))
        }
        guard queued else { return Self.send(ServiceError.stopping.response, on: connection) }
        exchange.answer = answer
        return MHD_Result.YES
    }

    fileprivate static func send(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let created = response.body.withUnsafeBytes { buffer in
            MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
        }
        guard let created else { return MHD_Result.NO }
        for (name, value) in response.headers { _ = MHD_add_response_header(created, name, value) }
        let result = MHD_queue_response(connection, UInt32(response.status), created)
        MHD_destroy_response(created)
        return result
    }
}

/// libmicrohttpd's access handler: called once with the headers (`*state` empty), then with
/// each piece of the body, then once more with none (the request is complete).
private let accessHandler: MHD_AccessHandlerCallback = { context, connection, url, method, _, uploadData, uploadSize, state in
    guard let context, let connection, let state, let uploadSize else { return MHD_Result.NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    guard let pointer = state.pointee else {
        let exchange = HTTPServer.Exchange()
        state.pointee = Unmanaged.passRetained(exchange).toOpaque()
        server.begin()
        exchange.limit = server.bodyLimit(method.map { String(cString: $0) } ?? "", url.map { String(cString: $0) } ?? "")
        if let text = MHD_lookup_connection_value(connection, MHD_ValueKind.HEADER_KIND, "Content-Length"),
           let length = Int(String(cString: text).trimmingSpaces), length > exchange.limit {
            exchange.tooLarge = true
            return HTTPServer.send(ServiceError.tooLarge(limit: exchange.limit).response, on: connection)
        }
        return MHD_Result.YES
    }
    let exchange = Unmanaged<HTTPServer.Exchange>.fromOpaque(pointer).takeUnretainedValue()
    if uploadSize.pointee > 0 {
        if !exchange.tooLarge, let uploadData {
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
    if exchange.tooLarge {
        return HTTPServer.send(ServiceError.tooLarge(limit: exchange.limit).response, on: connection)
    }
    if let answer = exchange.answer {
        // Called again after the worker resumed the connection: its response is there.
        guard let response = answer.withLock({ $0 }) else { return MHD_Result.NO }
        return HTTPServer.send(response, on: connection)
    }
    let request = server.request(connection, url: url.map { String(cString: $0) } ?? "/",
                                 method: method.map { String(cString: $0) } ?? "GET", body: exchange.body)
    return server.dispatch(request, exchange: exchange, on: connection)
}

private let requestCompleted: MHD_RequestCompletedCallback = { context, _, state, _ in
    guard let context, let state, let pointer = state.pointee else { return }
    Unmanaged<HTTPServer.Exchange>.fromOpaque(pointer).release()
    state.pointee = nil
    Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().end()
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
    collector.values[String(cString: key)] = value.map { String(cString: $0) } ?? ""
    return MHD_Result.YES
}

/// Headers or query arguments, gathered by `collectValue`.
final class HTTPValueCollector {
    var values: [String: String] = [:]
}

extension String {
    var trimmingSpaces: Substring {
        var text = Substring(self)
        while text.first == " " || text.first == "\t" { text.removeFirst() }
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return text
    }
}
